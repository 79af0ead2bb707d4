import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { heapFlags, MALLOC_ARENAS, relaunchEnv, SEMI_SPACE_MB, tuneHeap } from './heap.js';

describe('tuneHeap', () => {
  it("keeps the operator's own growing factor and baseline compiler", () => {
    expect(tuneHeap(['--heap-growing-percent=80', '--sparkplug'])).toEqual([]);
    expect(tuneHeap(['--enable-source-maps', '--heap_growing_percent=120'])).toEqual([
      '--no-sparkplug',
    ]);
    expect(tuneHeap(['--no_sparkplug'])).toEqual(['--heap-growing-percent=40']);
  });

  it('sets both otherwise, without disturbing the running heap', () => {
    expect(tuneHeap(['--enable-source-maps'])).toEqual([
      '--heap-growing-percent=40',
      '--no-sparkplug',
    ]);
    expect(getHeapStatistics().used_heap_size).toBeGreaterThan(0);
  });
});

describe('heapFlags', () => {
  it('adds the young generation, the growing factor and the compiler switch to a bare command line', () => {
    expect(heapFlags(['--enable-source-maps'], {})).toEqual([
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
      '--heap-growing-percent=40',
      '--no-sparkplug',
    ]);
  });

  it("keeps the operator's choices, on the command line or in NODE_OPTIONS", () => {
    expect(heapFlags(['--heap-growing-percent=80'], {})).toEqual([
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
      '--no-sparkplug',
    ]);
    expect(heapFlags(['--sparkplug', '--heap-growing-percent=80'], {})).toEqual([
      `--max-semi-space-size=${SEMI_SPACE_MB}`,
    ]);
    expect(heapFlags(['--heap-growing-percent=80', '--max-semi-space-size=8'], {})).toEqual([]);
  });

  it('starts no second time once the young generation is sized (tuneHeap sets the factor)', () => {
    expect(heapFlags(['--max_semi_space_size=64'], {})).toEqual([]);
    expect(
      heapFlags([], { NODE_OPTIONS: '--max-semi-space-size=32 --enable-source-maps' }),
    ).toEqual([]);
  });
});

describe('relaunchEnv', () => {
  it('bounds malloc arenas in the second start, marked as started with the flags', () => {
    const env = relaunchEnv(['--max-semi-space-size=16'], { PORT: '3000' });
    expect(env).toEqual({
      PORT: '3000',
      MALLOC_ARENA_MAX: String(MALLOC_ARENAS),
      CAL_HEAP_FLAGS: '--max-semi-space-size=16',
    });
  });

  it("keeps the operator's own MALLOC_ARENA_MAX", () => {
    expect(relaunchEnv([], { MALLOC_ARENA_MAX: '8' }).MALLOC_ARENA_MAX).toBe('8');
    expect(relaunchEnv([], { MALLOC_ARENA_MAX: '' }).MALLOC_ARENA_MAX).toBe(String(MALLOC_ARENAS));
  });
});
