import { threadCpuMs } from '../cpu.js';
import { exceedsChars, LIMIT_CHECKS, listItemCount } from './limits.js';

describe('limits', () => {
  it('counts characters as code points, as varchar and JSON Schema maxLength do', () => {
    expect(exceedsChars('😀'.repeat(10), 10)).toBe(false); // 20 UTF-16 units
    expect(exceedsChars('😀'.repeat(11), 10)).toBe(true);
    expect(exceedsChars('a'.repeat(10), 10)).toBe(false);
    expect(exceedsChars('a'.repeat(11), 10)).toBe(true);
  });

  it('counts list items as the list readers see them', () => {
    expect(listItemCount('1, 2,,3 , ')).toBe(3);
    expect(listItemCount(['1,2', 3, 'a'])).toBe(4);
    expect(listItemCount({ 0: 'a', 1: 'b,c' })).toBe(3);
    expect(listItemCount(undefined)).toBe(0);
    // An inline record is one reference, whatever its fields.
    expect(listItemCount({ venue: 'A, B', city: 'C' }, 'references')).toBe(1);
    expect(listItemCount([{ organizer: 'A' }, 5], 'references')).toBe(2);
    expect(listItemCount('1,2,3', 'references')).toBe(3);
  });

  it('refuses 8,000 inline organizers without looking at them', () => {
    const organizers = Array.from({ length: 8000 }, (_, i) => ({ organizer: `O${i}` }));
    const start = threadCpuMs();
    const message = LIMIT_CHECKS.maxItems(organizers, [100, undefined, 'references']);
    // Counting only: a per-item check of 8,000 records took seconds of CPU.
    expect(threadCpuMs() - start).toBeLessThan(250);
    expect(message).toBe('limit:too_many_items:100');
  });

  it('reports a too long item of a list', () => {
    expect(LIMIT_CHECKS.maxItems(['ok', `${'x'.repeat(201)},y`], [100, 200, 'list'])).toBe(
      'limit:item_too_long:200',
    );
    expect(LIMIT_CHECKS.maxItems([`${'x'.repeat(200)},y`], [100, 200, 'list'])).toBeNull();
  });
});
