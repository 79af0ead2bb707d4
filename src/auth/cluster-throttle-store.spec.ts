import type { AppConfig } from '../config/config.js';
import { ApiError } from '../common/errors/api-error.js';
import {
  ClusterThrottleStore,
  ThrottleChannel,
  ThrottleStoreHost,
  type SendToPrimary,
} from './cluster-throttle-store.js';
import { LoginThrottle } from './login-throttle.js';
import { MemoryThrottleStore } from './throttle-store.js';

const MINUTE = 60_000;
const config = {
  loginThrottle: {
    perLoginAndAddress: { max: 3, windowMs: 10 * MINUTE },
    perAddress: { max: 50, windowMs: 10 * MINUTE },
    perLogin: { max: 5, windowMs: 10 * MINUTE },
    trustedForMs: 60 * MINUTE,
  },
} as AppConfig;

/** A worker wired to `host` as node:cluster wires it: messages both ways, answered later. */
function worker(host: ThrottleStoreHost, onFailure = vi.fn()) {
  const send: SendToPrimary = (message, done) => {
    // Through JSON, as the IPC channel carries it.
    const sent = JSON.parse(JSON.stringify(message)) as unknown;
    setImmediate(() => {
      done(null);
      void host.answer(sent).then((reply) => channel.receive(JSON.parse(JSON.stringify(reply))));
    });
  };
  const channel = new ThrottleChannel(send);
  const store = (name: 'failures' | 'trusted') =>
    new ClusterThrottleStore(channel, name, new MemoryThrottleStore(100), onFailure);
  const throttle = new LoginThrottle(config, {
    failures: store('failures'),
    trusted: store('trusted'),
  });
  return { channel, throttle, onFailure };
}

async function attempt(throttle: LoginThrottle, ip: string, login: string): Promise<number> {
  try {
    await (await throttle.begin(ip, login, 'guess')).failed();
    return 401;
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
}

describe('login failures shared by the workers through the primary', () => {
  it('lets exactly the configured number of failures through, whichever worker answers', async () => {
    const host = new ThrottleStoreHost();
    const workers = [worker(host).throttle, worker(host).throttle];
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++) statuses.push(await attempt(workers[i % 2], '198.51.100.7', 'ann'));
    expect(statuses).toEqual([401, 401, 401, 429, 429, 429, 429, 429]);
  });

  it('counts one login from many addresses across workers too', async () => {
    const host = new ThrottleStoreHost();
    const workers = [worker(host).throttle, worker(host).throttle, worker(host).throttle];
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++)
      statuses.push(await attempt(workers[i % 3], `203.0.113.${i}`, 'bo'));
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
  });

  it('answers malformed messages with an error, and ignores what is not for it', async () => {
    const host = new ThrottleStoreHost();
    expect(await host.answer({ cal: 'listening' })).toBeNull();
    expect(await host.answer(null)).toBeNull();
    expect(await host.answer({ cal: 'throttle', id: 1, store: 'nope', op: 'get', args: [] })).toBe(
      null,
    );
    for (const args of [
      [['k'], 'now'],
      [Array.from({ length: 17 }, () => 'k'), 1],
      [['x'.repeat(1025)], 1],
    ]) {
      expect(
        await host.answer({ cal: 'throttle', id: 2, store: 'failures', op: 'get', args }),
      ).toEqual({ cal: 'throttle-reply', id: 2, error: 'malformed throttle message' });
    }
    expect(
      await host.answer({
        cal: 'throttle',
        id: 3,
        store: 'failures',
        op: 'increment',
        args: [[{ key: 'k', ttlMs: 1000 }], 5],
      }),
    ).toEqual({ cal: 'throttle-reply', id: 3, result: [{ count: 1, expiresAt: 1005 }] });
  });

  it('counts in the worker while the primary does not answer, and says so once', async () => {
    const onFailure = vi.fn();
    const silent = new ThrottleChannel(() => undefined, 20);
    const store = new ClusterThrottleStore(
      silent,
      'failures',
      new MemoryThrottleStore(10),
      onFailure,
    );
    expect(await store.increment([{ key: 'k', ttlMs: 1000 }], 0)).toEqual([
      { count: 1, expiresAt: 1000 },
    ]);
    expect(await store.get(['k'], 1)).toEqual([{ count: 1, expiresAt: 1000 }]);
    expect(onFailure).toHaveBeenCalledTimes(1);
    expect(onFailure.mock.calls[0][1]).toBe(false);

    const broken = new ThrottleChannel((_, done) => done(new Error('channel closed')));
    await expect(broken.ask('failures', 'get', [['k'], 0])).rejects.toThrow('channel closed');
    const closed = new ThrottleChannel(() => undefined);
    const waiting = closed.ask('failures', 'get', [['k'], 0]);
    closed.close();
    await expect(waiting).rejects.toThrow('closed');
    await expect(closed.ask('failures', 'get', [['k'], 0])).rejects.toThrow('closed');
  });
});
