import { setFlagsFromString } from 'node:v8';

/**
 * How far V8 lets the old generation grow past what survived its last full collection before
 * collecting again, in percent. V8 picks a factor of up to 4× by itself, so a server whose live
 * heap is about 60 MB ended a load test at 300–380 MB of RSS, nearly all of it garbage waiting
 * for the next collection; at 1.5× it stays about 200 MB at the same throughput
 * (docs/benchmarks.md: the heap growing factor, in "The night after").
 */
const HEAP_GROWING_PERCENT = 50;

/**
 * Sets V8's heap growing factor for this process (workers too: each runs main.ts), unless the
 * operator chose one on the command line (`node --heap-growing-percent=N dist/main.js`; Node
 * refuses the flag in NODE_OPTIONS). V8 reads it at every full collection, so setting it before
 * the heap has grown is enough. Answers whether it was set here.
 */
export function tuneHeap(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
