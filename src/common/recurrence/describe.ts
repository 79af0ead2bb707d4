import { parseRule, type Recurrence, type Rule } from './rules.js';
import type { SeriesAnchor } from './expand.js';
import { pluralRulesOf } from '../../config/plural-rules.js';
import { utcFormatter } from '../dates/utc-formatters.js';

/** English dates as "30 June 2027". */
const LOCALES: Record<string, string> = { en: 'en-GB' };

/** The date formats of a description (utcFormatter keeps one formatter per format and language). */
const MONTH: Intl.DateTimeFormatOptions = { month: 'long' };
const FULL_DATE: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long', year: 'numeric' };
const DAY_OF_MONTH: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'long' };

/**
 * Translates `recurrence.describe.<key>` in the reader's language; `count` picks a plural form
 * (Romanian one, few and other: "o singură dată", "de 19 ori", "de 20 de ori").
 */
export type Translate = (key: string, args?: Record<string, string | number>) => string;

/**
 * A readable description of a series in the reader's language (CONTRACT §9), e.g. "Every month on
 * the second Tuesday, 19:00–21:00, until 30 June 2027": each rule's frequency, days, months and
 * positions, then the times of the event, how the rule ends and the dates it leaves out or adds.
 *
 * The words are the catalogue's (`i18n/{lang}/recurrence.json`, `describe`), each part in lower
 * case, so that a part joined after another continues the sentence; only the sentence's first
 * letter is made a capital here ({@link asContinuation} undoes it after a label). Every count and
 * interval is a plural message. A frequency and the days within its period are one message
 * (`of_month`, `of_year`, `of_months`, `on_date`), since Hungarian and Romanian word them
 * together ("minden hónap második keddjén", "în fiecare an, pe 24 decembrie"). Hungarian writes
 * `a(z)` in the catalogue where the article depends on the word after it: the article is chosen
 * here ({@link hungarianArticles}), so a reader never sees "a(z)".
 */
export function describeRecurrence(
  recurrence: Recurrence,
  anchor: Pick<SeriesAnchor, 'start' | 'end' | 'allDay'>,
  tr: Translate,
  lang: string,
): string {
  const words = describerWords(tr, lang);
  const { w } = words;
  const ending = (text: string, rule: Rule) =>
    rule.until
      ? w('until', { base: text, date: words.date(rule.until) })
      : rule.count
        ? w('count', { base: text, count: rule.count })
        : text;
  const times = (text: string) =>
    anchor.allDay
      ? w('all_day', { base: text })
      : w('time', { base: text, start: anchor.start.slice(11, 16), end: anchor.end.slice(11, 16) });

  const parts = recurrence.rules.map((r) => {
    const rule = parseRule(r) as Rule;
    return { text: ruleClause(rule, words), rule };
  });
  let text: string;
  if (parts.length === 1) {
    // One rule: its times, then how it ends ("…, 19:00–21:00, until 30 June 2027").
    text = ending(times(parts[0].text), parts[0].rule);
  } else if (parts.length) {
    // Several: each ends within its own clause, the times are those of all.
    text = times(
      parts.map((p) => ending(p.text, p.rule)).reduce((a, b) => w('rules', { first: a, last: b })),
    );
  } else if (recurrence.rdates.length) {
    text = times(w('only_dates', { count: recurrence.rdates.length }));
  } else return '';
  if (parts.length && recurrence.exdates.length) {
    text = w('except', { base: text, count: recurrence.exdates.length });
  }
  if (parts.length && recurrence.rdates.length) {
    text = w('also', { base: text, count: recurrence.rdates.length });
  }
  text = hungarianArticles(text);
  return text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
}

/** The words a description is made of, in the reader's language. */
type DescriberWords = ReturnType<typeof describerWords>;

function describerWords(tr: Translate, lang: string) {
  const w = (key: string, args?: Record<string, string | number>) =>
    tr(`recurrence.describe.${key}`, args);
  const list = (items: string[]) =>
    items.length < 2
      ? (items[0] ?? '')
      : w('and', { first: items.slice(0, -1).join(', '), last: items[items.length - 1] });
  // The first few have words; beyond them a number, whose form (21st, 22nd, 23rd, 24th) is
  // chosen by the language's ordinal plural rules: the catalogue has `one`, `two`, `few` and
  // `other` in every language, the same text where the language does not need them.
  const ordinalRules = pluralRulesOf(lang, 'ordinal');
  const ordinalKey = (n: number) =>
    ['1', '2', '3', '4', '5', '-1', '-2'].includes(String(n))
      ? String(n)
      : `${n > 0 ? 'n' : '-n'}.${ORDINAL_FORMS.has(ordinalRules.select(Math.abs(n))) ? ordinalRules.select(Math.abs(n)) : 'other'}`;
  const ordinal = (n: number) => w(`ordinal.${ordinalKey(n)}`, { n: Math.abs(n) });
  // Month names and the order of a date are the runtime's (CLDR), in the reader's language.
  const locale = LOCALES[lang] ?? lang;
  const format = (options: Intl.DateTimeFormatOptions, y: number, m: number, d: number) =>
    utcFormatter(locale, options).format(new Date(Date.UTC(y, m - 1, d)));
  const month = (m: number) => format(MONTH, 2000, m, 1);
  // Hungarian ends a date with a full stop, which the suffix replaces ("június 30-ig").
  const date = (sql: string) =>
    format(FULL_DATE, +sql.slice(0, 4), +sql.slice(5, 7), +sql.slice(8, 10)).replace(/\.$/, '');
  // A day of a month as a yearly rule names it: "24 December", "december 24-én", "24 decembrie".
  const dayOfMonth = (m: number, d: number) =>
    format(DAY_OF_MONTH, 2000, m, d).replace(/\.$/, `-${HUNGARIAN_ON_DAY[d - 1]}`);
  return { w, list, ordinalKey, ordinal, month, date, dayOfMonth };
}

/** One rule's frequency with its days, months and positions, without times or ending. */
function ruleClause(rule: Rule, words: DescriberWords): string {
  const { w, list, ordinalKey } = words;
  const months = rule.byMonth ?? [];
  const plain = rule.byDay?.filter((d) => !d.ordinal) ?? [];
  const nth = (rule.byDay?.filter((d) => d.ordinal) ?? []).map((d) =>
    w(`nth.${ordinalKey(d.ordinal)}`, { n: Math.abs(d.ordinal), day: w(`weekday.${d.day}`) }),
  );
  const monthDays = (rule.byMonthDay ?? []).map((n) =>
    n > 0
      ? w('monthday', { n })
      : n === -1
        ? w('monthday_last')
        : w('monthday_from_end', { n: -n }),
  );
  let { text, monthsTold, monthDaysTold } = frequencyClause(rule, words, nth, monthDays);
  if (months.length && !monthsTold) {
    text = w('in_months', { base: text, months: list(months.map((m) => w(`month_in.${m}`))) });
  }
  if (plain.length) {
    text = w('on_weekdays', { base: text, days: list(plain.map((d) => w(`weekday_on.${d.day}`))) });
  }
  if (monthDays.length && !monthDaysTold) {
    text = w('of_each_month', { base: text, days: list(monthDays) });
  }
  if (rule.bySetPos) {
    text = w('setpos', {
      base: text,
      positions: list(rule.bySetPos.map(words.ordinal)),
      count: rule.bySetPos.length,
    });
  }
  return text;
}

/**
 * A frequency and the days within its period as one message where the languages word them
 * together; says which of the months and month days it has told already.
 */
function frequencyClause(rule: Rule, words: DescriberWords, nth: string[], monthDays: string[]) {
  const { w, list } = words;
  const freq = rule.freq.toLowerCase();
  const count = rule.interval;
  const months = rule.byMonth ?? [];
  const inPeriod = [...nth, ...monthDays];
  if (
    freq === 'yearly' &&
    months.length === 1 &&
    rule.byMonthDay?.length === 1 &&
    rule.byMonthDay[0] > 0 &&
    !rule.byDay &&
    !rule.bySetPos
  ) {
    const date = words.dayOfMonth(months[0], rule.byMonthDay[0]);
    return { text: w('on_date', { count, date }), monthsTold: true, monthDaysTold: true };
  }
  if (freq === 'monthly' && inPeriod.length) {
    return {
      text: w('of_month', { count, days: list(inPeriod) }),
      monthsTold: false,
      monthDaysTold: true,
    };
  }
  if (freq === 'yearly' && months.length && inPeriod.length) {
    const text = w('of_months', {
      count,
      days: list(inPeriod),
      months: list(months.map(words.month)),
    });
    return { text, monthsTold: true, monthDaysTold: true };
  }
  // Without BYMONTH a yearly ordinal counts the days of the year (RFC 5545).
  if (freq === 'yearly' && nth.length) {
    return {
      text: w('of_year', { count, days: list(nth) }),
      monthsTold: false,
      monthDaysTold: false,
    };
  }
  return { text: w(`every.${freq}`, { count }), monthsTold: false, monthDaysTold: false };
}

/**
 * A description as the continuation of a sentence, after a label ("Repeats: every week…"): its
 * first letter in lower case. The describer's sentences open with a word of the catalogue (never
 * a name), so this undoes only the capital it added.
 */
export const asContinuation = (text: string, lang: string) =>
  text.charAt(0).toLocaleLowerCase(lang) + text.slice(1);

/**
 * Hungarian writes the article "az" before a vowel sound and "a" before a consonant sound; the
 * catalogue writes `a(z)` where the next word is a placeholder, and the word decides here. A
 * number is read aloud: "az 1." (egy), "az 5." (öt), "az 50" (ötven), "a 10." (tíz), "a 100"
 * (száz), "az 1000" (ezer).
 */
export function hungarianArticles(text: string): string {
  return text.replace(/(?<!\p{L})([Aa])\(z\)(\s+)(\S+)/gu, (_all, a: string, space, word) => {
    const digits = /^\d+/.exec(word)?.[0];
    const vowel = digits
      ? digits[0] === '5' || (digits[0] === '1' && digits.length % 3 === 1)
      : /^[aáeéiíoóöőuúüű]/iu.test(word);
    return `${vowel ? `${a}z` : a}${space}${word}`;
  });
}

/** The ordinal forms that the catalogue's `nth.n`, `nth.-n`, `ordinal.n` and `ordinal.-n` have. */
const ORDINAL_FORMS = new Set(['one', 'two', 'few', 'other']);

/**
 * The suffix "on the day" of a Hungarian date, by how its ordinal ends: elsején → 1-jén,
 * másodikán → 2-án, negyedikén → 4-én, tizenkettedikén → 12-én, huszadikán → 20-án.
 */
const HUNGARIAN_ON_DAY = (
  'jén án án én én án én án én én ' +
  'én én án én én án én án én án ' +
  'én én án én én án én án én án én'
).split(' ');
