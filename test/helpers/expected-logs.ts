import { Logger, type LoggerService } from '@nestjs/common';

/**
 * Errors a test provokes on purpose (a simulated outage, the 500 path) are logged by the app as
 * in production. While captured, they are kept here for the test to assert instead of being
 * printed, so that a passing run reads as passing; `SHOW_EXPECTED_LOGS=1` prints them too,
 * labelled. Anything logged outside a capture is printed as usual.
 */
export class ExpectedLogs {
  readonly lines: string[] = [];
  private readonly previous: LoggerService | undefined;

  constructor() {
    const statics = Logger as unknown as { staticInstanceRef?: LoggerService };
    this.previous = statics.staticInstanceRef;
    const keep =
      (level: string) =>
      (message: unknown, ...rest: unknown[]) => {
        const context = typeof rest.at(-1) === 'string' ? `${String(rest.at(-1))}: ` : '';
        const line = `${level} ${context}${String(message)}`;
        this.lines.push(line);
        if (process.env.SHOW_EXPECTED_LOGS) console.log(`[expected by the test] ${line}`);
      };
    Logger.overrideLogger({
      error: keep('ERROR'),
      warn: keep('WARN'),
      log: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    });
  }

  /** Puts the app's usual logger back; call it in afterAll/finally. */
  restore(): void {
    Logger.overrideLogger(this.previous ?? false);
  }
}

export const captureExpectedLogs = () => new ExpectedLogs();

/** Runs `work` with its logs captured; returns its result and what it logged. */
export async function withExpectedLogs<T>(
  work: () => PromiseLike<T>,
): Promise<{ result: T; lines: string[] }> {
  const logs = captureExpectedLogs();
  try {
    return { result: await work(), lines: logs.lines };
  } finally {
    logs.restore();
  }
}
