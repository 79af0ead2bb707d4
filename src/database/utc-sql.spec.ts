import { nowUtcSql } from './utc-sql.js';

describe('nowUtcSql', () => {
  const plain = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

  it('formats every instant as toISOString does, the kept second included', () => {
    for (const ms of [
      1_700_000_000_000, 1_700_000_000_999, 1_700_000_000_500, 1_700_000_001_000, 0, -1, -1000,
      -1001, -500, -62_135_596_800_000, 253_402_300_799_999,
    ]) {
      expect(nowUtcSql(new Date(ms))).toBe(plain(new Date(ms)));
      expect(nowUtcSql(new Date(ms))).toBe(plain(new Date(ms)));
    }
    expect(nowUtcSql()).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  it('still refuses an invalid date', () => {
    expect(() => nowUtcSql(new Date(Number.NaN))).toThrow(RangeError);
  });
});
