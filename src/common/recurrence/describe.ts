import { parseRule, type Recurrence, type Rule } from './rules.js';
import type { SeriesAnchor } from './expand.js';

/** English dates as "30 June 2027". */
const LOCALES: Record<string, string> = { en: 'en-GB' };

/** Translates `recurrence.describe.<key>` in the reader's language. */
export type Translate = (key: string, args?: Record<string, string | number>) => string;

/**
 * A readable description of a series in the reader's language (CONTRACT §9), e.g. "Every month on
 * the second Tuesday, 19:00-21:00, until 30 June 2027": each rule's frequency, days, months and
 * positions, then the times of the event and how the rule ends. The words are the catalogue's
 * (`i18n/{lang}/recurrence.json`, `describe`), so that Hungarian and Romanian read natively.
 */
export function describeRecurrence(
  recurrence: Recurrence,
  anchor: Pick<SeriesAnchor, 'start' | 'end' | 'allDay'>,
  tr: Translate,
  lang: string,
): string {
  const w = (key: string, args?: Record<string, string | number>) =>
    tr(`recurrence.describe.${key}`, args);
  const list = (items: string[]) =>
    items.length < 2
      ? (items[0] ?? '')
      : w('and', { first: items.slice(0, -1).join(', '), last: items[items.length - 1] });
  const ordinal = (n: number) => {
    const key = String(n);
    if (['1', '2', '3', '4', '5', '-1', '-2'].includes(key)) return w(`ordinal.${key}`);
    return w(n > 0 ? 'ordinal.n' : 'ordinal.-n', { n: Math.abs(n) });
  };
  // Month names and the order of a date are the runtime's (CLDR), in the reader's language.
  const locale = LOCALES[lang] ?? lang;
  const month = (m: number) =>
    new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2000, m - 1, 1)),
    );
  const date = (sql: string) =>
    new Intl.DateTimeFormat(locale, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    })
      .format(new Date(Date.UTC(+sql.slice(0, 4), +sql.slice(5, 7) - 1, +sql.slice(8, 10))))
      // Hungarian ends a date with a full stop, which the suffix replaces ("június 30-ig").
      .replace(/\.$/, '');

  const one = (rule: Rule) => {
    const freq = rule.freq.toLowerCase();
    let text = rule.interval === 1 ? w(`${freq}_1`) : w(`${freq}_n`, { n: rule.interval });
    if (rule.byMonth) {
      text = w('in_months', { base: text, months: list(rule.byMonth.map(month)) });
    }
    const plain = rule.byDay?.filter((d) => !d.ordinal) ?? [];
    const nth = rule.byDay?.filter((d) => d.ordinal) ?? [];
    if (plain.length) {
      text = w('on_weekdays', {
        base: text,
        days: list(plain.map((d) => w(`weekday_on.${d.day}`))),
      });
    }
    if (nth.length) {
      const days = nth.map((d) => `${ordinal(d.ordinal)} ${w(`weekday.${d.day}`)}`);
      text = w('on_nth', { base: text, days: list(days) });
    }
    if (rule.byMonthDay) {
      const days = rule.byMonthDay.map((n) =>
        n > 0
          ? w('monthday', { n })
          : n === -1
            ? w('monthday_last')
            : w('monthday_from_end', { n: -n }),
      );
      text = w('on_monthdays', { base: text, days: list(days) });
    }
    if (rule.bySetPos) {
      text = w('setpos', { base: text, positions: list(rule.bySetPos.map(ordinal)) });
    }
    return { text, rule };
  };

  const parts = recurrence.rules.map((r) => one(parseRule(r) as Rule));
  let text = parts.length
    ? parts.map((p) => p.text).reduce((a, b) => w('rules', { first: a, last: b }))
    : '';
  if (text) {
    text = anchor.allDay
      ? w('all_day', { base: text })
      : w('time', { base: text, start: anchor.start.slice(11, 16), end: anchor.end.slice(11, 16) });
  }
  // One ending is told: the rules of most series are one.
  const ending = parts.length === 1 ? parts[0].rule : undefined;
  if (ending?.until) text = w('until', { base: text, date: date(ending.until) });
  else if (ending?.count) text = w('count', { base: text, count: ending.count });
  return text;
}
