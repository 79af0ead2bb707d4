import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Resolves once `condition` holds, checking every `everyMs`; throws after `timeoutMs`. For what
 * happens in the background or in another process: never a fixed wait, whose length the machine's
 * load would decide.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what = 'the condition',
  everyMs = 20,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error(`${what} did not hold within ${timeoutMs} ms`);
    await sleep(everyMs);
  }
}
