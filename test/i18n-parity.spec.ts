import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isPlural } from './helpers/glossary.js';

/** Every message and description exists in every language, translated (not an English copy). */
const DIR = join(__dirname, '..', 'i18n');
const languages = readdirSync(DIR).filter((d) => statSync(join(DIR, d)).isDirectory());

/** Plural messages (`{one, other}`) by key, with the forms each has. */
const plurals = new Map<string, Map<string, string[]>>();

function flatten(value: unknown, prefix: string, out: Map<string, string>, lang: string) {
  if (isPlural(value)) {
    // One message: its forms depend on the language (Romanian has one, few and other).
    out.set(prefix, value.other);
    if (!plurals.has(lang)) plurals.set(lang, new Map());
    plurals.get(lang)!.set(prefix, Object.keys(value));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      flatten(v, prefix ? `${prefix}.${k}` : k, out, lang);
  } else out.set(prefix, String(value));
}

function keysOf(lang: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(join(DIR, lang)).filter((f) => f.endsWith('.json'))) {
    flatten(
      JSON.parse(readFileSync(join(DIR, lang, file), 'utf8')),
      file.replace(/\.json$/, ''),
      out,
      lang,
    );
  }
  return out;
}

/** Texts that are the same in every language on purpose (product names, codes). */
const SAME_EVERYWHERE = new Set([
  'doc.info.title',
  'cli.user_list.columns.id',
  'cli.import.total_ics', // Total: … is Romanian too
  // Only placeholders, codes and punctuation: `{url}: HTTP 404`, `{code} ({status}): {message}`.
  'cli.source.http_status',
  'cli.source.api_refusal',
  'cli.source.api_refusal_params',
  'cli.source.param',
  'recurrence.describe.time', // {base}, {start}–{end}
  // The console's (react-admin's polyglot catalogue): placeholders only, a blank, and words
  // spelt alike (E-mail; Calendar is Romanian too).
  'console.ra.boolean.null',
  'console.ra.page.edit',
  'console.ra.page.list',
  'console.ra.page.show',
  'console.ra.auth.email',
  'console.resources.organizers.fields.email',
  'console.cal.calendar',
  // WordPress's Romanian role names: Administrator, Editor, Contributor are Romanian words too.
  'console.cal.users.roles.administrator',
  'console.cal.users.roles.editor',
  'console.cal.users.roles.contributor',
]);

describe('translations', () => {
  it('has en, hu and ro', () => {
    expect(languages.sort()).toEqual(['en', 'hu', 'ro']);
  });

  const en = keysOf('en');
  it.each(['hu', 'ro'])('%s has exactly the English keys', (lang) => {
    const other = keysOf(lang);
    expect([...other.keys()].sort()).toEqual([...en.keys()].sort());
  });

  it.each(['hu', 'ro'])('%s translates every text', (lang) => {
    const other = keysOf(lang);
    const untranslated = [...en].filter(([k, v]) => other.get(k) === v && !SAME_EVERYWHERE.has(k));
    expect(untranslated).toEqual([]);
  });

  it.each(['en', 'hu', 'ro'])('%s has every plural form its language needs', (lang) => {
    keysOf(lang);
    const needed = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    const incomplete = [...(plurals.get(lang) ?? [])]
      .filter(([, forms]) => needed.some((f) => !forms.includes(f)))
      .map(([key, forms]) => `${key}: ${forms.join(', ')} (needs ${needed.join(', ')})`);
    expect(incomplete).toEqual([]);
  });

  // Romanian nouns agree with the number before them (2 evenimente, 20 de evenimente); English
  // ones too (1 event, 2 events). Hungarian ones do not (2 esemény), so a text may do there.
  it('ro has plural forms wherever English has them', () => {
    keysOf('en');
    keysOf('ro');
    const missing = [...(plurals.get('en')?.keys() ?? [])].filter(
      (key) => !plurals.get('ro')?.has(key),
    );
    expect(missing).toEqual([]);
  });

  it.each(['hu', 'ro'])('%s keeps every {placeholder}', (lang) => {
    const other = keysOf(lang);
    // Each once: the console's Romanian plurals name %{smart_count} in each of their three forms.
    const placeholders = (s: string) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();
    const broken = [...en].filter(
      ([k, v]) =>
        JSON.stringify(placeholders(v)) !== JSON.stringify(placeholders(other.get(k) ?? '')),
    );
    expect(broken).toEqual([]);
  });
});
