/**
 * At most `max` runs of some work at once in this process; the others wait their turn, in the
 * order they came. For work that holds much memory while it runs (a scrypt check, a calendar
 * view's thousands of payloads): a burst of such requests then costs `max` runs' memory, not one
 * run's per request, and takes about as long in all on a process that is busy anyway.
 */
export class Turns {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly max: number) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((turn) => this.waiting.push(turn));
    else this.running++;
    try {
      return await work();
    } finally {
      // The turn passes to the next waiting run, or the slot is freed.
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
