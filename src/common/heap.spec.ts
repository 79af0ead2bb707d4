import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { tuneHeap } from './heap.js';

describe('tuneHeap', () => {
  it("keeps the operator's own growing factor", () => {
    expect(tuneHeap(['--heap-growing-percent=80'])).toBe(false);
    expect(tuneHeap(['--enable-source-maps', '--heap_growing_percent=120'])).toBe(false);
  });

  it('sets the factor otherwise, without disturbing the running heap', () => {
    expect(tuneHeap(['--enable-source-maps'])).toBe(true);
    expect(getHeapStatistics().used_heap_size).toBeGreaterThan(0);
  });
});
