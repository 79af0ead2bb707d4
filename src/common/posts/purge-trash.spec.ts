import { parseAge } from './purge-trash.js';

describe('parseAge', () => {
  it('reads hours, days and weeks', () => {
    expect(parseAge('12h')).toBe(12 * 3600_000);
    expect(parseAge('30d')).toBe(30 * 86400_000);
    expect(parseAge('2w')).toBe(14 * 86400_000);
    expect(parseAge('0d')).toBe(0);
  });

  it.each(['30', 'd', '1.5d', '-1d', '30 days', '1234567d', ''])('refuses "%s"', (value) => {
    expect(parseAge(value)).toBeNull();
  });
});
