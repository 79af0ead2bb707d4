import { pluralRulesOf } from './plural-rules.js';

describe('pluralRulesOf', () => {
  it("chooses a language's cardinal and ordinal forms", () => {
    expect([1, 2, 20].map((n) => pluralRulesOf('ro').select(n))).toEqual(['one', 'few', 'other']);
    expect([1, 2, 3, 4].map((n) => pluralRulesOf('en', 'ordinal').select(n))).toEqual([
      'one',
      'two',
      'few',
      'other',
    ]);
    expect(pluralRulesOf('hu', 'ordinal').select(2)).toBe('other');
  });

  it('keeps one of each kind per language, within a bound', () => {
    expect(pluralRulesOf('hu')).toBe(pluralRulesOf('hu'));
    expect(pluralRulesOf('en')).not.toBe(pluralRulesOf('en', 'ordinal'));
    const locales = Array.from({ length: 40 }, (_, i) => `ro-x-a${i}`);
    const rules = locales.map((locale) => pluralRulesOf(locale));
    expect(rules.map((r) => r.select(2))).toEqual(locales.map(() => 'few'));
    expect(pluralRulesOf(locales[39])).not.toBe(rules[39]);
  });
});
