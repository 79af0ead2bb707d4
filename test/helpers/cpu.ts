import { threadCpuMs } from '../../src/common/cpu.js';

/**
 * Runs `run` (a request to the app in this thread, a parse) and returns its answer with the CPU
 * time of this thread it took. Over `boundMs`, it runs twice more and the least counts: what an
 * input costs is what answering it takes, and a collection of the worker's heap that falls
 * inside one run (the files of a worker share it) is not part of that. Only for work that can be
 * repeated without changing what it answers (reads, a password form, a parse).
 */
export async function leastThreadCpuMs<T>(
  run: () => T | Promise<T>,
  boundMs: number,
): Promise<{ value: T; ms: number }> {
  let ms = Infinity;
  let value: T | undefined;
  for (let attempt = 0; attempt < 3 && ms > boundMs; attempt++) {
    const started = threadCpuMs();
    value = await run();
    ms = Math.min(ms, threadCpuMs() - started);
  }
  return { value: value as T, ms };
}
