import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every message and description exists in every language, translated (not an English copy). */
const DIR = join(__dirname, '..', 'i18n');
const languages = readdirSync(DIR).filter((d) => statSync(join(DIR, d)).isDirectory());

function flatten(value: unknown, prefix: string, out: Map<string, string>) {
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, String(value));
}

function keysOf(lang: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const file of readdirSync(join(DIR, lang)).filter((f) => f.endsWith('.json'))) {
    flatten(
      JSON.parse(readFileSync(join(DIR, lang, file), 'utf8')),
      file.replace(/\.json$/, ''),
      out,
    );
  }
  return out;
}

/** Texts that are the same in every language on purpose (product names, codes). */
const SAME_EVERYWHERE = new Set(['doc.info.title']);

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

  it.each(['hu', 'ro'])('%s keeps every {placeholder}', (lang) => {
    const other = keysOf(lang);
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    const broken = [...en].filter(
      ([k, v]) =>
        JSON.stringify(placeholders(v)) !== JSON.stringify(placeholders(other.get(k) ?? '')),
    );
    expect(broken).toEqual([]);
  });
});
