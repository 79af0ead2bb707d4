import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  asContinuation,
  describeRecurrence,
  hungarianArticles,
} from '../../src/common/recurrence/describe.js';
import { cliMessages } from '../../src/config/messages.js';
import { isPlural } from '../helpers/glossary.js';

/**
 * The recurrence describer's sentences, read as a native writer reads them: a reviewed table of
 * rules rendered in en, hu and ro (the whole sentence, not its parts), then checks on every
 * sentence composed (a join or a label continues in lower case, no "a(z)" reaches a reader) and
 * on the Romanian catalogue (a count before a noun agrees with it: 19 zile, 20 de zile).
 *
 * Every series here runs 19:00–21:00 from Tuesday 12 January 2027 unless it is all-day.
 */
interface Row {
  rules: string[];
  exdates?: string[];
  rdates?: string[];
  allDay?: boolean;
  en: string;
  hu: string;
  ro: string;
}

const GOLDEN: Row[] = [
  {
    rules: ['FREQ=WEEKLY'],
    en: 'Every week, 19:00–21:00',
    hu: 'Minden héten, 19:00–21:00',
    ro: 'În fiecare săptămână, 19:00–21:00',
  },
  {
    rules: ['FREQ=WEEKLY;BYDAY=MO,WE'],
    en: 'Every week on Monday and Wednesday, 19:00–21:00',
    hu: 'Minden héten hétfőn és szerdán, 19:00–21:00',
    ro: 'În fiecare săptămână, lunea și miercurea, 19:00–21:00',
  },
  {
    rules: ['FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH'],
    en: 'Every 2 weeks on Tuesday and Thursday, 19:00–21:00',
    hu: '2 hetente kedden és csütörtökön, 19:00–21:00',
    ro: 'O dată la 2 săptămâni, marțea și joia, 19:00–21:00',
  },
  {
    rules: ['FREQ=DAILY;INTERVAL=28'],
    en: 'Every 28 days, 19:00–21:00',
    hu: '28 naponta, 19:00–21:00',
    ro: 'O dată la 28 de zile, 19:00–21:00',
  },
  {
    rules: ['FREQ=DAILY;INTERVAL=19'],
    en: 'Every 19 days, 19:00–21:00',
    hu: '19 naponta, 19:00–21:00',
    ro: 'O dată la 19 zile, 19:00–21:00',
  },
  {
    rules: ['FREQ=DAILY;INTERVAL=2;COUNT=20'],
    allDay: true,
    en: 'Every 2 days, all day, 20 times',
    hu: '2 naponta, egész nap, 20 alkalommal',
    ro: 'O dată la 2 zile, toată ziua, de 20 de ori',
  },
  {
    rules: ['FREQ=MONTHLY;BYMONTHDAY=15'],
    en: 'Every month on day 15, 19:00–21:00',
    hu: 'Minden hónap 15. napján, 19:00–21:00',
    ro: 'În fiecare lună, în ziua 15, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYMONTHDAY=1,15,-1'],
    en: 'Every month on day 1, day 15 and the last day, 19:00–21:00',
    hu: 'Minden hónap 1. napján, 15. napján és utolsó napján, 19:00–21:00',
    ro: 'În fiecare lună, în ziua 1, ziua 15 și ultima zi, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYMONTHDAY=-3'],
    en: 'Every month on day 3 from the end, 19:00–21:00',
    hu: 'Minden hónap végétől számított 3. napján, 19:00–21:00',
    ro: 'În fiecare lună, în a 3-a zi de la sfârșit, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYDAY=2TU'],
    en: 'Every month on the second Tuesday, 19:00–21:00',
    hu: 'Minden hónap második keddjén, 19:00–21:00',
    ro: 'În fiecare lună, în a doua marți, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;INTERVAL=3;BYDAY=1MO,-1FR'],
    en: 'Every 3 months on the first Monday and the last Friday, 19:00–21:00',
    hu: '3 havonta, a hónap első hétfőjén és utolsó péntekén, 19:00–21:00',
    ro: 'O dată la 3 luni, în prima luni și ultima vineri, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYDAY=-3WE'],
    en: 'Every month on the 3rd-to-last Wednesday, 19:00–21:00',
    hu: 'Minden hónap végétől számított 3. szerdáján, 19:00–21:00',
    ro: 'În fiecare lună, în a 3-a miercuri de la sfârșit, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYDAY=21MO,-22FR,53SU'],
    en: 'Every year on the 21st Monday, the 22nd-to-last Friday and the 53rd Sunday of the year, 19:00–21:00',
    hu: 'Minden év 21. hétfőjén, végétől számított 22. péntekén és 53. vasárnapján, 19:00–21:00',
    ro: 'În fiecare an, în a 21-a luni, a 22-a vineri de la sfârșit și a 53-a duminică din an, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'],
    en: 'Every month on Monday, Tuesday, Wednesday, Thursday and Friday, only the last occurrence in each period, 19:00–21:00',
    hu: 'Minden hónapban hétfőn, kedden, szerdán, csütörtökön és pénteken, időszakonként csak az utolsó alkalommal, 19:00–21:00',
    ro: 'În fiecare lună, lunea, marțea, miercurea, joia și vinerea, doar ultima apariție din fiecare perioadă, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1'],
    en: 'Every month on Monday, Tuesday, Wednesday, Thursday and Friday, only the first and last occurrences in each period, 19:00–21:00',
    hu: 'Minden hónapban hétfőn, kedden, szerdán, csütörtökön és pénteken, időszakonként csak az első és utolsó alkalommal, 19:00–21:00',
    ro: 'În fiecare lună, lunea, marțea, miercurea, joia și vinerea, doar prima și ultima apariție din fiecare perioadă, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=5'],
    en: 'Every month on Monday, Tuesday, Wednesday, Thursday and Friday, only the fifth occurrence in each period, 19:00–21:00',
    hu: 'Minden hónapban hétfőn, kedden, szerdán, csütörtökön és pénteken, időszakonként csak az ötödik alkalommal, 19:00–21:00',
    ro: 'În fiecare lună, lunea, marțea, miercurea, joia și vinerea, doar a cincea apariție din fiecare perioadă, 19:00–21:00',
  },
  {
    rules: ['FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=10'],
    en: 'Every month on Monday, Tuesday, Wednesday, Thursday and Friday, only the 10th occurrence in each period, 19:00–21:00',
    hu: 'Minden hónapban hétfőn, kedden, szerdán, csütörtökön és pénteken, időszakonként csak a 10. alkalommal, 19:00–21:00',
    ro: 'În fiecare lună, lunea, marțea, miercurea, joia și vinerea, doar a 10-a apariție din fiecare perioadă, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY'],
    en: 'Every year, 19:00–21:00',
    hu: 'Minden évben, 19:00–21:00',
    ro: 'În fiecare an, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYDAY=1MO'],
    en: 'Every year on the first Monday of the year, 19:00–21:00',
    hu: 'Minden év első hétfőjén, 19:00–21:00',
    ro: 'În fiecare an, în prima luni din an, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYDAY=20MO'],
    en: 'Every year on the 20th Monday of the year, 19:00–21:00',
    hu: 'Minden év 20. hétfőjén, 19:00–21:00',
    ro: 'În fiecare an, în a 20-a luni din an, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24'],
    allDay: true,
    en: 'Every year on 24 December, all day',
    hu: 'Minden év december 24-én, egész nap',
    ro: 'În fiecare an, pe 24 decembrie, toată ziua',
  },
  {
    rules: ['FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=1'],
    allDay: true,
    en: 'Every year on 1 December, all day',
    hu: 'Minden év december 1-jén, egész nap',
    ro: 'În fiecare an, pe 1 decembrie, toată ziua',
  },
  {
    rules: ['FREQ=YEARLY;INTERVAL=2;BYMONTH=8;BYMONTHDAY=20'],
    en: 'Every 2 years on 20 August, 19:00–21:00',
    hu: '2 évente, augusztus 20-án, 19:00–21:00',
    ro: 'O dată la 2 ani, pe 20 august, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU'],
    en: 'Every year on the last Sunday of March and October, 19:00–21:00',
    hu: 'Minden évben március és október utolsó vasárnapján, 19:00–21:00',
    ro: 'În fiecare an, în ultima duminică din martie și octombrie, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYMONTH=6,7'],
    en: 'Every year in June and July, 19:00–21:00',
    hu: 'Minden évben júniusban és júliusban, 19:00–21:00',
    ro: 'În fiecare an, în iunie și iulie, 19:00–21:00',
  },
  {
    rules: ['FREQ=YEARLY;BYMONTH=6;BYDAY=MO'],
    en: 'Every year in June on Monday, 19:00–21:00',
    hu: 'Minden évben júniusban hétfőn, 19:00–21:00',
    ro: 'În fiecare an, în iunie, lunea, 19:00–21:00',
  },
  {
    rules: ['FREQ=WEEKLY;COUNT=1'],
    en: 'Every week, 19:00–21:00, once',
    hu: 'Minden héten, 19:00–21:00, egyetlen alkalommal',
    ro: 'În fiecare săptămână, 19:00–21:00, o singură dată',
  },
  {
    rules: ['FREQ=WEEKLY;COUNT=2'],
    en: 'Every week, 19:00–21:00, 2 times',
    hu: 'Minden héten, 19:00–21:00, 2 alkalommal',
    ro: 'În fiecare săptămână, 19:00–21:00, de 2 ori',
  },
  {
    rules: ['FREQ=WEEKLY;COUNT=19'],
    en: 'Every week, 19:00–21:00, 19 times',
    hu: 'Minden héten, 19:00–21:00, 19 alkalommal',
    ro: 'În fiecare săptămână, 19:00–21:00, de 19 ori',
  },
  {
    rules: ['FREQ=WEEKLY;COUNT=20'],
    en: 'Every week, 19:00–21:00, 20 times',
    hu: 'Minden héten, 19:00–21:00, 20 alkalommal',
    ro: 'În fiecare săptămână, 19:00–21:00, de 20 de ori',
  },
  {
    rules: ['FREQ=WEEKLY;COUNT=24'],
    en: 'Every week, 19:00–21:00, 24 times',
    hu: 'Minden héten, 19:00–21:00, 24 alkalommal',
    ro: 'În fiecare săptămână, 19:00–21:00, de 24 de ori',
  },
  {
    rules: ['FREQ=WEEKLY;COUNT=101'],
    en: 'Every week, 19:00–21:00, 101 times',
    hu: 'Minden héten, 19:00–21:00, 101 alkalommal',
    ro: 'În fiecare săptămână, 19:00–21:00, de 101 ori',
  },
  {
    rules: ['FREQ=MONTHLY;UNTIL=20270630;BYDAY=2TU'],
    en: 'Every month on the second Tuesday, 19:00–21:00, until 30 June 2027',
    hu: 'Minden hónap második keddjén, 19:00–21:00, 2027. június 30-ig',
    ro: 'În fiecare lună, în a doua marți, 19:00–21:00, până la 30 iunie 2027',
  },
  {
    rules: ['FREQ=WEEKLY;BYDAY=TH'],
    exdates: ['2027-01-07'],
    en: 'Every week on Thursday, 19:00–21:00, except on one date',
    hu: 'Minden héten csütörtökön, 19:00–21:00, egy nap kivételével',
    ro: 'În fiecare săptămână, joia, 19:00–21:00, cu excepția unei zile',
  },
  {
    rules: ['FREQ=WEEKLY;BYDAY=TH'],
    exdates: ['2027-01-07', '2027-01-14', '2027-01-21'],
    en: 'Every week on Thursday, 19:00–21:00, except on 3 dates',
    hu: 'Minden héten csütörtökön, 19:00–21:00, 3 nap kivételével',
    ro: 'În fiecare săptămână, joia, 19:00–21:00, cu excepția a 3 zile',
  },
  {
    rules: ['FREQ=WEEKLY;BYDAY=TH'],
    rdates: ['2027-01-09 19:00:00', '2027-01-10 19:00:00'],
    en: 'Every week on Thursday, 19:00–21:00, and on 2 more dates',
    hu: 'Minden héten csütörtökön, 19:00–21:00, és még 2 napon',
    ro: 'În fiecare săptămână, joia, 19:00–21:00, și în încă 2 zile',
  },
  {
    rules: ['FREQ=WEEKLY', 'FREQ=MONTHLY'],
    en: 'Every week; and every month, 19:00–21:00',
    hu: 'Minden héten; valamint minden hónapban, 19:00–21:00',
    ro: 'În fiecare săptămână; și în fiecare lună, 19:00–21:00',
  },
  {
    rules: ['FREQ=WEEKLY;BYDAY=SA;UNTIL=20270630', 'FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;COUNT=5'],
    allDay: true,
    en: 'Every week on Saturday, until 30 June 2027; and every year on 24 December, 5 times, all day',
    hu: 'Minden héten szombaton, 2027. június 30-ig; valamint minden év december 24-én, 5 alkalommal, egész nap',
    ro: 'În fiecare săptămână, sâmbăta, până la 30 iunie 2027; și în fiecare an, pe 24 decembrie, de 5 ori, toată ziua',
  },
  {
    rules: ['FREQ=WEEKLY;BYDAY=MO', 'FREQ=MONTHLY;COUNT=6;BYMONTHDAY=1'],
    en: 'Every week on Monday; and every month on day 1, 6 times, 19:00–21:00',
    hu: 'Minden héten hétfőn; valamint minden hónap 1. napján, 6 alkalommal, 19:00–21:00',
    ro: 'În fiecare săptămână, lunea; și în fiecare lună, în ziua 1, de 6 ori, 19:00–21:00',
  },
  {
    rules: [],
    rdates: ['2027-01-09 19:00:00', '2027-01-10 19:00:00'],
    en: 'On 2 dates, 19:00–21:00',
    hu: '2 megadott napon, 19:00–21:00',
    ro: 'În 2 zile stabilite, 19:00–21:00',
  },
];

const LANGUAGES = ['en', 'hu', 'ro'] as const;
/** Names that English writes with a capital wherever they stand: weekdays and months. */
const NAMES = new Set(
  Array.from({ length: 12 }, (_, m) => [
    new Date(Date.UTC(2000, m, 1)).toLocaleString('en', { month: 'long', timeZone: 'UTC' }),
    new Date(Date.UTC(2000, 0, 3 + (m % 7))).toLocaleString('en', {
      weekday: 'long',
      timeZone: 'UTC',
    }),
  ]).flat(),
);

const render = (row: Row, lang: (typeof LANGUAGES)[number]) =>
  describeRecurrence(
    { rules: row.rules, exdates: row.exdates ?? [], rdates: row.rdates ?? [] },
    { start: '2027-01-12 19:00:00', end: '2027-01-12 21:00:00', allDay: row.allDay ?? false },
    cliMessages(lang).t,
    lang,
  );

const label = (row: Row) =>
  [
    row.rules.join(' + ') || 'no rule',
    row.exdates?.length ? `${row.exdates.length} exdates` : '',
    row.rdates?.length ? `${row.rdates.length} rdates` : '',
    row.allDay ? 'all day' : '',
  ]
    .filter(Boolean)
    .join(', ');

describe('the description of a series', () => {
  it.each(LANGUAGES)('reads as the reviewed table says in %s', (lang) => {
    const table = (pick: (row: Row) => string) =>
      GOLDEN.map((row) => `${label(row)}: ${pick(row)}`);
    expect(table((row) => render(row, lang))).toEqual(table((row) => row[lang]));
  });

  it('covers the shapes the review asked for', () => {
    const rules = GOLDEN.flatMap((row) => row.rules).join('\n');
    for (const part of [
      /WEEKLY;BYDAY/,
      /MONTHLY;BYMONTHDAY/,
      /MONTHLY;BYDAY=\d/,
      /YEARLY;BYDAY=\d/,
      /YEARLY;BYMONTH=\d+;BYMONTHDAY/,
      /INTERVAL/,
      /UNTIL/,
      /BYSETPOS/,
      ...[1, 2, 19, 20, 24, 101].map((n) => new RegExp(`COUNT=${n}$`, 'm')),
    ])
      expect(rules).toMatch(part);
    expect(GOLDEN.some((row) => row.exdates?.length)).toBe(true);
    expect(GOLDEN.some((row) => row.rdates?.length)).toBe(true);
    expect(GOLDEN.some((row) => row.rules.length > 1)).toBe(true);
    expect(GOLDEN.some((row) => row.allDay)).toBe(true);
    expect(GOLDEN.length).toBeGreaterThanOrEqual(30);
  });

  it.each(LANGUAGES)(
    'is one sentence in %s: a capital, then lower case after every join',
    (lang) => {
      for (const row of GOLDEN) {
        const text = render(row, lang);
        expect([label(row), text.charAt(0)]).toEqual([label(row), text.charAt(0).toUpperCase()]);
        // Past its first letter a sentence has capitals only in names (English weekdays and
        // months): a part after a join or a label never opens with one ("Every week; and every…").
        const capitals = (text.slice(1).match(/\p{Lu}\p{L}*/gu) ?? []).filter((w) => !NAMES.has(w));
        expect([label(row), capitals]).toEqual([label(row), []]);
        expect([label(row), text.match(/ {2}| ,|\{|\}|\(z\)|recurrence\./g)]).toEqual([
          label(row),
          null,
        ]);
      }
    },
  );

  it.each(LANGUAGES)('continues a label in lower case in %s ("Repeats: every week…")', (lang) => {
    for (const row of GOLDEN) {
      const text = asContinuation(render(row, lang), lang);
      expect([label(row), text.charAt(0)]).toEqual([label(row), text.charAt(0).toLowerCase()]);
    }
    expect(asContinuation('În fiecare lună', 'ro')).toBe('în fiecare lună');
  });

  it('starts every part that may open the sentence in lower case, so that a join continues it', () => {
    for (const lang of LANGUAGES) {
      const describe = (
        JSON.parse(readFileSync(join(I18N, lang, 'recurrence.json'), 'utf8')) as {
          describe: Record<string, unknown>;
        }
      ).describe;
      const opening = [
        ...Object.values(describe.every as Record<string, unknown>),
        ...['of_month', 'of_year', 'of_months', 'on_date', 'only_dates'].map((k) => describe[k]),
      ].flatMap((v) => Object.values(v as Record<string, string>));
      expect([lang, opening.filter((t) => /^\p{Lu}/u.test(t))]).toEqual([lang, []]);
    }
  });
});

describe('Hungarian articles', () => {
  it('are chosen by the sound of the word that follows', () => {
    const cases: [string, string][] = [
      ['a(z) utolsó', 'az utolsó'],
      ['a(z) második', 'a második'],
      ['A(z) első', 'Az első'],
      ['a(z) 1.', 'az 1.'],
      ['a(z) 5.', 'az 5.'],
      ['a(z) 50', 'az 50'],
      ['a(z) 10.', 'a 10.'],
      ['a(z) 11.', 'a 11.'],
      ['a(z) 100', 'a 100'],
      ['a(z) 1000', 'az 1000'],
      ['a(z) 7 azonosítójú', 'a 7 azonosítójú'],
      ['csak a(z) Ünnep', 'csak az Ünnep'],
    ];
    expect(cases.map(([text]) => hungarianArticles(text))).toEqual(cases.map(([, want]) => want));
  });

  it('never reach a visitor as "a(z)"', () => {
    const pages = JSON.stringify(JSON.parse(readFileSync(join(I18N, 'hu', 'pages.json'), 'utf8')));
    expect(pages).not.toMatch(/a\(z\)/i);
    expect(GOLDEN.map((row) => render(row, 'hu')).filter((t) => /a\(z\)/i.test(t))).toEqual([]);
  });
});

const I18N = join(__dirname, '..', '..', 'i18n');

/** Placeholders that hold a number. */
const NUMBER = /^(?:count|max|min|attempts|n|total|length|limit|seconds|ms|mb|page|pages)$/;
/** Words after a number that do not agree with it: units and function words. */
const NOT_A_NOUN = /^(?:ms|s|h|MB|MiB|KiB|KB|GB|și|sau|din|la|pe|în|nu|a|–)$/u;

/**
 * Romanian texts in which a number stands before a noun: outside a plural message ("{max}
 * apariții" is wrong for 20 and up), or inside one with the wrong form (`other` without "de",
 * `one`/`few` with it).
 */
function romanianNumberSlips(catalogue: Record<string, unknown>, file: string): string[] {
  const slips: string[] = [];
  const check = (text: string, key: string, form?: string) => {
    for (const m of text.matchAll(/\{(\w+)\}\s+(de\s+)?([^\s{}.,;:()„”]+)/gu)) {
      if (!NUMBER.test(m[1]) || NOT_A_NOUN.test(m[3])) continue;
      const de = Boolean(m[2]);
      if (form === undefined) slips.push(`${key}: "${m[0]}" outside a plural message`);
      else if (form === 'other' && !de) slips.push(`${key}#${form}: "${m[0]}" needs "de"`);
      else if (form !== 'other' && de) slips.push(`${key}#${form}: "${m[0]}" takes no "de"`);
    }
  };
  const walk = (value: unknown, key: string) => {
    if (isPlural(value)) for (const [form, text] of Object.entries(value)) check(text, key, form);
    else if (value && typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(v, `${key}.${k}`);
    else if (typeof value === 'string') check(value, key);
  };
  walk(catalogue, file);
  return slips;
}

describe('Romanian numbers before a noun', () => {
  it('agree with it in every catalogue: a plural message, "de" from 20 on', () => {
    const slips = readdirSync(join(I18N, 'ro'))
      .filter((f) => f.endsWith('.json'))
      .flatMap((f) =>
        romanianNumberSlips(
          JSON.parse(readFileSync(join(I18N, 'ro', f), 'utf8')) as Record<string, unknown>,
          f.replace(/\.json$/, ''),
        ),
      );
    expect(slips).toEqual([]);
  });

  it('are found where a careless edit breaks them', () => {
    expect(
      romanianNumberSlips(
        {
          a: 'după {attempts} încercări',
          b: { one: 'o dată', few: 'de {count} ori', other: 'de {count} ori' },
          c: { one: 'o dată', few: 'de {count} de ori', other: 'de {count} de ori' },
          d: 'în {max} ms, pagina {page} din {pages}',
          e: { one: 'o dată', few: 'de {count} ori', other: 'de {count} de ori' },
        },
        'x',
      ),
    ).toEqual([
      'x.a: "{attempts} încercări" outside a plural message',
      'x.b#other: "{count} ori" needs "de"',
      'x.c#few: "{count} de ori" takes no "de"',
    ]);
  });
});
