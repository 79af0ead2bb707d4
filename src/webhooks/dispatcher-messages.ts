import type { AttemptOutcomeKind } from './delivery-rounds.js';

/** What the server gives its dispatcher thread when it starts it (src/webhook-thread.ts). */
export interface ThreadData {
  /** The process, as it holds leases (the same owner as on the server's thread). */
  owner: string;
  /** One Int32: the HTTP requests the server is answering now, kept by the server's thread. */
  inFlight: SharedArrayBuffer;
}

/**
 * From the server: fan out now (a commit), announce the posts gone live (the clock said so), or
 * stop (the process is stopping).
 */
export type ToThread = 'wake' | 'went-live' | 'stop';

/** From the thread: started, attempts stored (for the metrics), or could not start. */
export type FromThread =
  | { type: 'ready' }
  | { type: 'count'; outcome: AttemptOutcomeKind; n: number }
  | { type: 'failed'; message: string };
