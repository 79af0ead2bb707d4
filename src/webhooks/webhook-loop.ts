import { untraced } from '../tracing/spans.js';

/**
 * One of the dispatcher's loops: a pass at a time, woken to run now (or right after the pass
 * running) and planned again by what the pass answers (how long to wait), never before
 * `notBefore`. Each pass runs outside the trace of the request whose commit woke it: it works
 * for other writes too.
 */
export class Loop {
  stopped = true;
  /** No pass starts before this (a busy process's pause). */
  notBefore = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly pass: () => Promise<number>) {}

  start(): void {
    this.stopped = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  wake(): void {
    if (this.stopped) return;
    if (this.running) this.again = true;
    else if (this.notBefore <= Date.now()) {
      clearTimeout(this.timer);
      this.run();
    } else this.plan(this.notBefore);
  }

  /** Starts the next pass at `at`, unless one is planned sooner. */
  private plan(at: number): void {
    if (this.stopped || (this.timer && this.timerAt <= at)) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.run(), Math.max(0, at - Date.now()));
    this.timer.unref();
  }

  private run(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    if (this.stopped || this.running) return;
    this.running = untraced(() => this.pass()).then((wait) => {
      this.running = undefined;
      const next = this.again ? 0 : wait;
      this.again = false;
      this.plan(Math.max(Date.now() + next, this.notBefore));
    });
  }
}
