import { readFileSync, writeFileSync } from 'node:fs';
import {
  GLOSSARY_MD,
  bannedUses,
  catalogue,
  compile,
  identifiers,
  keeps,
  loadGlossary,
  missingTerms,
  prose,
  renderGlossary,
  rendering,
} from './helpers/glossary.js';

/**
 * The hu and ro catalogues follow docs/i18n/glossary.json: no banned variant of a term, every
 * parameter name of the English text kept, and the expected rendering wherever the English names
 * a term. New keys are checked as soon as they exist; nothing here lists keys.
 */
const glossary = loadGlossary();
const LANGUAGES = ['hu', 'ro'];
const english = catalogue('en');

/** The recurring terms that the glossary must always settle (the review's list). */
const REQUIRED_TERMS = [
  'slug',
  'post ID',
  'post name',
  'update',
  'trash',
  'draft',
  'pending',
  'private',
  'featured',
  'sticky',
  'venue',
  'organizer',
  'event tag',
  'event category',
  'archive',
  'all day',
  'time zone',
  'UTC',
  'empty string',
  'e-mail',
  'invalid',
  'endpoint',
  'per page',
  'application password',
  'excerpt',
  'geolocation',
];

const show = (found: { key: string; term: string; pattern: string; text: string }[]) =>
  found.map((f) => `${f.key} [${f.term}: ${f.pattern}] ${f.text}`);

describe('glossary patterns', () => {
  it('match whole words, stems and compounds, case-insensitively', () => {
    expect(compile('frissít*').test('Az eseményt nem sikerült frissíteni')).toBe(true);
    expect(compile('frissít*').test('felfrissít')).toBe(false);
    expect(compile('slug*').test('Slug-ul evenimentului')).toBe(true);
    expect(compile('*bejegyzés-azonosító*').test('WordPress-bejegyzés-azonosítója')).toBe(true);
    expect(compile('la gunoi').test('este deja la  gunoi')).toBe(true);
    expect(compile('la gunoi').test('la gunoiul')).toBe(false);
    expect(compile('punct* final*').test('Punctele finale ale rutei')).toBe(true);
    expect(compile('etichet* de eveniment').test('etichetele de evenimente')).toBe(false);
    expect(compile('etichet* de eveniment').test('eticheta de eveniment.')).toBe(true);
  });

  it('reject anything but letters, spaces, - and *', () => {
    expect(() => compile('a|b')).toThrow('bad glossary pattern');
    expect(() => compile('(x+)+')).toThrow('bad glossary pattern');
    expect(() => compile('')).toThrow('bad glossary pattern');
  });

  it('stay linear on long input', () => {
    const text = `${'a'.repeat(100_000)} ${'punct '.repeat(20_000)}`;
    const started = process.hrtime.bigint();
    for (const p of ['*bejegyzés-azonosító*', 'punct* final*', 'a* b*']) compile(p).test(text);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(2000); // quadratic would take minutes
  });

  it('leave code out of the prose and find the names a translation must keep', () => {
    const en = 'Filter by `slug`, {id}, "post", post_parent, starts_*/ends_* in cal/events/v1';
    expect(identifiers(en)).toEqual([
      'slug',
      '{id}',
      'post',
      'post_parent',
      'starts_*',
      'ends_*',
      'cal/events/v1',
    ]);
    expect(prose(en)).not.toMatch(/slug|post|cal\//);
    expect(keeps('a post_parent értéke', 'post_parent')).toBe(true);
    expect(keeps('a post_parents', 'post_parent')).toBe(false);
    expect(keeps('szülőbejegyzés', 'post_parent')).toBe(false);
  });

  it('find a banned variant, a dropped name and a missing term in a catalogue', () => {
    const en = new Map([['x.a', 'Update the event post_parent']]);
    const hu = new Map([['x.a', 'Frissíti az esemény szülőjét']]);
    expect(show(bannedUses(glossary, 'hu', hu))).toEqual([
      'x.a [update: frissít*] Frissíti az esemény szülőjét',
    ]);
    expect(show(missingTerms(glossary, 'hu', en, hu))).toEqual([
      'x.a [update: módosít*] Frissíti az esemény szülőjét',
    ]);
  });
});

describe('glossary', () => {
  it('settles every recurring term in every language', () => {
    const missing = REQUIRED_TERMS.flatMap((term) =>
      LANGUAGES.filter((l) => !rendering(glossary.terms[term] ?? {}, l)?.preferred.length).map(
        (l) => `${term} (${l})`,
      ),
    );
    expect(missing).toEqual([]);
  });

  it('compiles every pattern', () => {
    const all = Object.values(glossary.terms).flatMap((t) => [
      ...(t.en ?? []),
      ...LANGUAGES.flatMap((l) => [
        ...(rendering(t, l)?.expect ?? []),
        ...(rendering(t, l)?.banned ?? []),
      ]),
    ]);
    const broken = all.filter((p) => {
      try {
        compile(p);
        return false;
      } catch {
        return true;
      }
    });
    expect(broken).toEqual([]);
  });

  it.each(LANGUAGES)('never bans its own preferred forms in %s', (language) => {
    const preferred = new Map(
      Object.entries(glossary.terms).flatMap(([term, t]) =>
        (rendering(t, language)?.preferred ?? []).map((p, i) => [`${term}#${i}`, p] as const),
      ),
    );
    expect(show(bannedUses(glossary, language, preferred))).toEqual([]);
  });

  it('is rendered in docs/i18n/GLOSSARY.md', () => {
    const md = renderGlossary(glossary, LANGUAGES);
    if (process.env.UPDATE_GLOSSARY) writeFileSync(GLOSSARY_MD, md);
    expect(readFileSync(GLOSSARY_MD, 'utf8')).toBe(md);
  });
});

describe.each(LANGUAGES)('the %s catalogue', (language) => {
  const texts = catalogue(language);

  it('uses no banned variant', () => {
    expect(show(bannedUses(glossary, language, texts))).toEqual([]);
  });

  it('uses the glossary rendering wherever the English names a term', () => {
    expect(show(missingTerms(glossary, language, english, texts))).toEqual([]);
  });

  it('keeps every parameter name of the English text', () => {
    const dropped = [...english].flatMap(([key, en]) => {
      const text = texts.get(key);
      if (text === undefined) return [];
      return identifiers(en)
        .filter((id) => !keeps(text, id))
        .map((id) => `${key}: ${id} — ${text}`);
    });
    expect(dropped).toEqual([]);
  });
});
