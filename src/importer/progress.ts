import type { ProgressStream } from '../config/program-output.js';

/**
 * Progress on standard error: a bar redrawn in place on a terminal, plain lines otherwise (a log
 * file or a pipe gets one line per ten records and one at the end of each kind).
 */
export class Progress {
  private label = '';
  private total = 0;
  private done = 0;
  private lastLine = -1;

  constructor(
    private readonly out: ProgressStream,
    private readonly enabled = true,
  ) {}

  private get tty(): boolean {
    return !!this.out.isTTY;
  }

  start(label: string, total: number): void {
    this.label = label;
    this.total = total;
    this.done = 0;
    this.lastLine = -1;
    this.draw();
  }

  /** More records to go than said at the start (lists come page by page). */
  more(count: number): void {
    this.total += count;
  }

  tick(): void {
    this.done++;
    this.draw();
  }

  finish(): void {
    if (!this.enabled) return;
    if (this.tty) this.out.write('\n');
    else if (this.lastLine !== this.done) this.line();
  }

  /** A message that must not be drawn over. */
  note(text: string): void {
    if (!this.enabled) return;
    this.out.write(this.tty ? `\r\x1b[K${text}\n` : `${text}\n`);
    if (this.tty) this.draw();
  }

  private draw(): void {
    if (!this.enabled) return;
    if (!this.tty) {
      if (this.done && this.done % 10 === 0 && this.done !== this.total) {
        this.line();
      }
      return;
    }
    const width = Math.max(10, Math.min(40, (this.out.columns ?? 80) - 40));
    const share = this.total ? this.done / this.total : 1;
    const filled = Math.round(share * width);
    this.out.write(
      `\r\x1b[K${this.label.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total}`,
    );
  }

  private line(): void {
    this.lastLine = this.done;
    this.out.write(`${this.label} ${this.done}/${this.total}\n`);
  }
}
