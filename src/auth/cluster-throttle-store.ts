import type { Worker } from 'node:cluster';
import {
  MAX_FAILURE_KEYS,
  MAX_TRUSTED_KEYS,
  MemoryThrottleStore,
  type Counter,
  type ThrottleStore,
} from './throttle-store.js';

/**
 * The login throttle's counters shared by the workers of one server (WORKERS > 1) without Redis:
 * the primary process holds them, each worker asks it over node:cluster's IPC channel. The limits
 * are then the server's whatever WORKERS says, and a replaced worker finds the counts where the
 * others left them. Every operation is one message and one answer; the primary applies each
 * message whole before the next, so increments from several workers never interleave.
 *
 * Nothing here depends on Nest: the primary loads this file and no more of the application.
 */

type StoreName = 'failures' | 'trusted';
type Operation = 'get' | 'increment' | 'set' | 'delete';

interface ThrottleRequest {
  cal: 'throttle';
  id: number;
  store: StoreName;
  op: Operation;
  args: unknown[];
}

export interface ThrottleReply {
  cal: 'throttle-reply';
  id: number;
  result?: unknown;
  error?: string;
}

/** A worker answers by itself (its own counts) when the primary has not answered in this time. */
const IPC_TIMEOUT_MS = 2_000;
/** Questions waiting for the primary, at most; beyond, the worker answers by itself. */
const MAX_PENDING = 10_000;
/** What one message may carry: the throttle never sends more than a few short keys. */
const MAX_KEYS = 16;
const MAX_KEY_LENGTH = 1_024;

/** The primary's side: the stores, and the answer to each worker's message. */
export class ThrottleStoreHost {
  private readonly stores: Record<StoreName, MemoryThrottleStore> = {
    failures: new MemoryThrottleStore(MAX_FAILURE_KEYS),
    trusted: new MemoryThrottleStore(MAX_TRUSTED_KEYS),
  };

  /** The reply to `message`, or null when it is no throttle message (or names no request). */
  async answer(message: unknown): Promise<ThrottleReply | null> {
    if (!isRequest(message)) return null;
    const reply = (result?: unknown, error?: string): ThrottleReply => ({
      cal: 'throttle-reply',
      id: message.id,
      ...(error === undefined ? { result } : { error }),
    });
    const store = this.stores[message.store];
    const [first, second, third] = message.args;
    switch (message.op) {
      case 'get':
        if (!isKeyList(first) || !isTime(second)) break;
        return reply(await store.get(first, second));
      case 'increment':
        if (!isHitList(first) || !isTime(second)) break;
        return reply(await store.increment(first, second));
      case 'set':
        if (!isKey(first) || !isTime(second) || !isTime(third)) break;
        await store.set(first, second, third);
        return reply(null);
      case 'delete':
        if (!isKey(first)) break;
        await store.delete(first);
        return reply(null);
    }
    return reply(undefined, 'malformed throttle message');
  }
}

/** In the primary: answers the throttle messages of `worker` from `host`. */
export function serveThrottleStores(worker: Worker, host: ThrottleStoreHost): void {
  worker.on('message', (message: unknown) => {
    if ((message as { cal?: unknown } | null)?.cal !== 'throttle') return;
    void host.answer(message).then((reply) => {
      if (reply && worker.isConnected()) worker.send(reply);
    });
  });
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** Sends a message to the primary; `done` is called with the error when it could not be sent. */
export type SendToPrimary = (message: ThrottleRequest, done: (error: Error | null) => void) => void;

/**
 * A worker's end of the channel: sends questions with `send` (process.send), and is given every
 * message from the primary through `receive`. A question the primary does not answer within
 * `timeoutMs` fails, and so does every question that cannot be sent or is asked once closed.
 */
export class ThrottleChannel {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;

  constructor(
    private readonly send: SendToPrimary,
    private readonly timeoutMs = IPC_TIMEOUT_MS,
  ) {}

  /** Give it every message from the primary; it takes the throttle's answers. */
  readonly receive = (message: unknown): void => {
    const reply = message as ThrottleReply | null;
    if (reply?.cal !== 'throttle-reply' || typeof reply.id !== 'number') return;
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    clearTimeout(waiting.timer);
    if (typeof reply.error === 'string') waiting.reject(new Error(reply.error));
    else waiting.resolve(reply.result);
  };

  ask(store: StoreName, op: Operation, args: unknown[]): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the throttle channel is closed'));
    if (this.pending.size >= MAX_PENDING) {
      return Promise.reject(new Error('too many throttle questions waiting for the primary'));
    }
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`the primary process did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      timer.unref();
      this.pending.set(id, { resolve, reject, timer });
      const failed = (error: Error) => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        reject(error);
      };
      try {
        this.send({ cal: 'throttle', id, store, op, args }, (error) => error && failed(error));
      } catch (error) {
        failed(error as Error);
      }
    });
  }

  close(): void {
    this.closed = true;
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error('the throttle channel is closed'));
      this.pending.delete(id);
    }
  }
}

/**
 * One of the primary's stores, seen from a worker. While the primary does not answer, the
 * worker's own in-memory store stands in (logins keep working, counted by this worker), and
 * `onFailure` is told once per outage.
 */
export class ClusterThrottleStore implements ThrottleStore {
  private failing = false;

  constructor(
    private readonly channel: ThrottleChannel,
    private readonly store: StoreName,
    private readonly fallback: ThrottleStore,
    private readonly onFailure: (error: Error, recovered: boolean) => void,
  ) {}

  get(keys: readonly string[], now: number): Promise<(Counter | null)[]> {
    return this.guard(
      () => this.channel.ask(this.store, 'get', [keys, now]) as Promise<(Counter | null)[]>,
      () => this.fallback.get(keys, now),
    );
  }

  increment(hits: readonly { key: string; ttlMs: number }[], now: number): Promise<Counter[]> {
    return this.guard(
      () => this.channel.ask(this.store, 'increment', [hits, now]) as Promise<Counter[]>,
      () => this.fallback.increment(hits, now),
    );
  }

  set(key: string, ttlMs: number, now: number): Promise<void> {
    return this.guard(
      async () => {
        await this.channel.ask(this.store, 'set', [key, ttlMs, now]);
      },
      () => this.fallback.set(key, ttlMs, now),
    );
  }

  delete(key: string): Promise<void> {
    return this.guard(
      async () => {
        await this.channel.ask(this.store, 'delete', [key]);
      },
      () => this.fallback.delete(key),
    );
  }

  private async guard<T>(work: () => Promise<T>, fallback: () => Promise<T>): Promise<T> {
    try {
      const result = await work();
      if (this.failing) this.onFailure(new Error('the primary answers again'), true);
      this.failing = false;
      return result;
    } catch (error) {
      if (!this.failing) this.onFailure(error as Error, false);
      this.failing = true;
      return fallback();
    }
  }
}

function isRequest(message: unknown): message is ThrottleRequest {
  const m = message as Partial<ThrottleRequest> | null;
  return (
    !!m &&
    m.cal === 'throttle' &&
    Number.isSafeInteger(m.id) &&
    (m.store === 'failures' || m.store === 'trusted') &&
    (m.op === 'get' || m.op === 'increment' || m.op === 'set' || m.op === 'delete') &&
    Array.isArray(m.args) &&
    m.args.length <= 3
  );
}

const isKey = (v: unknown): v is string => typeof v === 'string' && v.length <= MAX_KEY_LENGTH;
const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isKeyList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length <= MAX_KEYS && v.every(isKey);
const isHitList = (v: unknown): v is { key: string; ttlMs: number }[] =>
  Array.isArray(v) &&
  v.length <= MAX_KEYS &&
  v.every((h: { key?: unknown; ttlMs?: unknown } | null) => !!h && isKey(h.key) && isTime(h.ttlMs));
