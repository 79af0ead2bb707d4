import { utcFormatter } from './utc-formatters.js';

const MONTH: Intl.DateTimeFormatOptions = { month: 'long' };
const DAY: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long' };
const june = new Date(Date.UTC(2027, 5, 30, 23, 30));

describe('utcFormatter', () => {
  it('formats on the UTC wall clock in the locale asked for', () => {
    expect(utcFormatter('en-GB', DAY).format(june)).toBe('30 June');
    expect(utcFormatter('hu', DAY).format(june)).toBe('június 30.');
    expect(utcFormatter('ro', MONTH).format(june)).toBe('iunie');
  });

  it('keeps one formatter per format and locale', () => {
    expect(utcFormatter('hu', MONTH)).toBe(utcFormatter('hu', MONTH));
    expect(utcFormatter('hu', MONTH)).not.toBe(utcFormatter('ro', MONTH));
    expect(utcFormatter('hu', MONTH)).not.toBe(utcFormatter('hu', DAY));
  });

  it('keeps a bounded number of them, and still formats past the bound', () => {
    // Formats made on the fly (a caller's mistake) fill the bound, then are made for the call.
    const made = Array.from({ length: 100 }, () => ({ year: 'numeric' }) as const);
    const formatted = made.map((format) => utcFormatter('en-GB', format));
    expect(formatted.map((f) => f.format(june))).toEqual(made.map(() => '2027'));
    expect(utcFormatter('en-GB', made[99])).not.toBe(formatted[99]);
    expect(utcFormatter('en-GB', made[0])).toBe(formatted[0]);
    const locales = Array.from({ length: 40 }, (_, i) => `en-u-nu-latn-x-a${i}`);
    const byLocale = locales.map((locale) => utcFormatter(locale, MONTH));
    expect(byLocale.map((f) => f.format(june))).toEqual(locales.map(() => 'June'));
    expect(utcFormatter(locales[39], MONTH)).not.toBe(byLocale[39]);
  });
});
