import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config.js';
import type { WriteVersion } from '../cache/write-version.js';
import { DatabaseMonitor } from './database-monitor.js';

type Ping = { selectOne: () => Promise<void> };

describe('DatabaseMonitor', () => {
  const make = (selectOne: () => Promise<void>) => {
    const monitor = new DatabaseMonitor(
      {} as DataSource,
      { database: { type: 'sqlite' } } as unknown as AppConfig,
      { bump: () => undefined } as unknown as WriteVersion,
    );
    vi.spyOn(monitor as unknown as Ping, 'selectOne').mockImplementation(selectOne);
    vi.spyOn(
      (monitor as unknown as { logger: { error: () => void } }).logger,
      'error',
    ).mockImplementation(() => undefined);
    return monitor;
  };
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('takes a slow ping for no outage, and a database silent for 1.5 s for one', async () => {
    const monitor = make(() => new Promise(() => undefined));
    const first = monitor.ping();
    await vi.advanceTimersByTimeAsync(700);
    await first;
    expect(monitor.isDown).toBe(false);
    await vi.advanceTimersByTimeAsync(300);
    const second = monitor.ping();
    await vi.advanceTimersByTimeAsync(700);
    await second;
    expect(monitor.isDown).toBe(true);
    monitor.onApplicationShutdown();
  });

  it('takes a refused connection for an outage at once, and recovers on the next answer', async () => {
    let refuse = true;
    const monitor = make(() =>
      refuse ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(),
    );
    await monitor.ping();
    expect(monitor.isDown).toBe(true);
    refuse = false;
    await monitor.ping();
    expect(monitor.isDown).toBe(false);
    monitor.onApplicationShutdown();
  });
});
