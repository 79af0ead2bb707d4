import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection before
 * collecting again, in percent. V8 picks a factor of up to 4× by itself, so a server whose live
 * heap is about 60 MB ended a load test at 300–380 MB of RSS, nearly all of it garbage waiting
 * for the next collection; at 1.5× it stays about 200 MB at the same throughput
 * (docs/benchmarks.md: the heap growing factor, in "The night after"). 1.4× since the reads
 * allocate 43 % less (docs/operations.md, "Memory"): issue 53's scenario peaked at 250-256 MB
 * against 259-274 at 1.5×, at the same CPU per read (1.34-1.36 ms against 1.32-1.36) and 3 %
 * more per computed list of 50 events (1.24 against 1.20 ms, within the runs' spread).
 */
const HEAP_GROWING_PERCENT = 40;

/**
 * The most each of V8's two semi-spaces (the young generation, where every request's objects
 * are born) may grow to, in MB. Node 24's V8 grows them to 64 MB each under load where Node 20's
 * stopped at 16: 96 MB more resident memory per process for a young generation that a request
 * server empties every few milliseconds anyway. Under load both semi-spaces are resident: at 16
 * MB each they were 32 MB of a worker's peak in issue 53's memory scenario; at 8 its peak fell
 * by 0-13 MB and the memory test's by 13-20 MB, at the same CPU per request within the
 * machine's noise (docs/operations.md, "Memory").
 */
export const SEMI_SPACE_MB = 8;
/** The young generation those semi-spaces make (two of them, plus as much for large objects). */
export const YOUNG_GENERATION_MB = 3 * SEMI_SPACE_MB;

/**
 * How many malloc arenas glibc may keep (MALLOC_ARENA_MAX). By default it opens one per thread
 * that allocates, up to 8 per core, and each keeps what it once held: V8's helper threads and
 * libuv's pool left 31 MB resident in them after issue 53's memory scenario, 19 MB with two, at
 * the same CPU per request. One (the main heap alone) took the scenario's peak from 243-259 MB
 * (mean 251, nine runs) to 233-240 (mean 237, five runs) on the evening of 2026-11-30, at the
 * same CPU per read and per create within the runs' spread (docs/operations.md, "Memory"). glibc
 * reads it once, as the process starts, so it travels in the environment of the second start
 * below; musl ignores it.
 */
export const MALLOC_ARENAS = 1;

/**
 * V8's baseline compiler (Sparkplug) off. It turns the bytecode of every function run a few
 * times into machine code, a few times the bytecode's size, to run it until the optimizing
 * tiers (Maglev, TurboFan) take the hot ones, which in a server is soon: in issue 53's memory
 * scenario a worker peaked 11 MB lower on average without it (241.7 against 252.8 MB over
 * alternating runs of 8,000 reads), at the same CPU per read, per create and per computed list,
 * event, month view and term list within the runs' spread (docs/operations.md, "Memory").
 * `node --sparkplug dist/main.js` keeps it.
 */
const NO_BASELINE = '--no-sparkplug';

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size\b/;
const GROWING_FLAG = /^--heap[-_]growing[-_]percent\b/;
const BASELINE_FLAG = /^--(no[-_])?sparkplug$/;
/** Set in the environment of a process started again with the flags (never twice). */
const RELAUNCHED = 'CAL_HEAP_FLAGS';

/**
 * V8 sizes the young generation when the process starts: `--max-semi-space-size` works only on
 * the command line (or NODE_OPTIONS), not from setFlagsFromString. So the server, started
 * without it, starts itself again in the same process (`process.execve`: same pid, same
 * standard streams, nothing opened yet) with the flags of this module; cluster workers inherit
 * the primary's command line and environment (MALLOC_ARENA_MAX). An operator's own choice (on the command line or in
 * NODE_OPTIONS) is kept. Where `process.execve` does not exist (Node before 22.15, Windows),
 * the server runs with V8's sizes and tuneHeap's growing factor.
 */
export function relaunchWithHeapFlags(
  execArgv: readonly string[] = process.execArgv,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const flags = heapFlags(execArgv, env);
  if (!flags.length || env[RELAUNCHED] || typeof process.execve !== 'function') return;
  process.execve(
    process.execPath,
    [process.execPath, ...flags, ...execArgv, ...process.argv.slice(1)],
    relaunchEnv(flags, env),
  );
}

/**
 * The environment of the second start: the first one's, marked as started with `flags`, and
 * with MALLOC_ARENA_MAX unless the operator chose one (an empty value counts as not chosen).
 */
export function relaunchEnv(flags: readonly string[], env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return {
    ...env,
    ...(!env.MALLOC_ARENA_MAX && { MALLOC_ARENA_MAX: String(MALLOC_ARENAS) }),
    [RELAUNCHED]: flags.join(' '),
  };
}

/**
 * The heap flags missing from a command line (and NODE_OPTIONS): what relaunch adds. None once
 * the young generation is sized there: the growing factor and the baseline compiler alone need
 * no second start (tuneHeap sets them in the running process), so a process started with
 * `--max-semi-space-size` (the Docker image puts it in NODE_OPTIONS) keeps its command line,
 * `node dist/main.js` as PID 1.
 */
export function heapFlags(execArgv: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const given = [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (given.some((arg) => SEMI_SPACE_FLAG.test(arg))) return [];
  return [`--max-semi-space-size=${SEMI_SPACE_MB}`, ...runtimeFlags(given)];
}

/**
 * The flags V8 also takes in a running process (tuneHeap) that `given` does not choose already:
 * the growing factor, the baseline compiler off.
 */
function runtimeFlags(given: readonly string[]): string[] {
  const flags: string[] = [];
  if (!given.some((arg) => GROWING_FLAG.test(arg)))
    flags.push(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (!given.some((arg) => BASELINE_FLAG.test(arg))) flags.push(NO_BASELINE);
  return flags;
}

/**
 * Sets V8's heap growing factor and turns its baseline compiler off for this process (workers
 * too: each runs main.ts), each unless the operator chose otherwise on the command line (`node
 * --heap-growing-percent=N --sparkplug dist/main.js`; Node refuses these flags in
 * NODE_OPTIONS). V8 reads the factor at every full collection and the compiler's switch each
 * time a function would tier up, so setting them before the heap has grown and the functions
 * have warmed is enough: what a process started without them (the Docker image, whose
 * NODE_OPTIONS sizes the young generation) still gets. Answers the flags set here.
 */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): string[] {
  const flags = runtimeFlags(execArgv);
  for (const flag of flags) setFlagsFromString(flag);
  return flags;
}
