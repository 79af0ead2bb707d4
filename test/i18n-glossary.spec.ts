import { threadCpuMs } from '../src/common/cpu.js';
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
  rendering,
} from './helpers/glossary.js';
import {
  addressSlips,
  compoundSlips,
  diacriticSlips,
  quoteSlips,
  summarySlips,
  vocabulary,
} from './helpers/glossary-slips.js';
import { renderGlossary } from './helpers/glossary-render.js';

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
  'occurrence',
  'series',
  'recurrence',
  'rule',
  'subscription',
  'delivery',
  'signing secret',
  'login',
  'server',
  'excerpt',
  'geolocation',
  'cost',
  'feed',
  'record',
];

const show2 = (found: { key: string; rule: string; text: string }[]) =>
  found.map((f) => `${f.key} [${f.rule}] ${f.text}`);

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
    const started = threadCpuMs();
    for (const p of ['*bejegyzés-azonosító*', 'punct* final*', 'a* b*']) compile(p).test(text);
    expect(threadCpuMs() - started).toBeLessThan(2000); // quadratic would take minutes
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

/** One text under a key, as a catalogue would hold it. */
const one = (key: string, text: string) => new Map([[key, text]]);
const rules = (found: { rule: string }[]) => found.map((f) => f.rule);

describe('the style checks find what a careless edit breaks', () => {
  it('formal address in Hungarian (te, never Ön)', () => {
    const slip = (text: string) => rules(addressSlips(glossary, 'hu', one('x.a', text)));
    expect(slip('Add meg a jelszót.')).toEqual([]);
    expect(slip('Nincs jogosultságod ehhez.')).toEqual([]);
    expect(slip('Kérjük, adja meg a jelszót.')).toEqual(['address: adja meg']);
    expect(slip('Önnek nincs jogosultsága ehhez.')).toEqual([
      'address: Önnek',
      'address: nincs jogosultsága',
    ]);
    expect(slip('Ellenőrizze a nevet, vagy próbálja újra.')).toEqual([
      'address: ellenőrizze',
      'address: próbálja*',
    ]);
    expect(slip('Adjon meg egy dátumot.')).toEqual(['address: adjon*']);
  });

  it('formal address in Romanian (tu, never dumneavoastră)', () => {
    const slip = (text: string) => rules(addressSlips(glossary, 'ro', one('x.a', text)));
    expect(slip('Introdu parola mai jos.')).toEqual([]);
    expect(slip('Organizatorii mutați la gunoi sunt șterși.')).toEqual([]);
    expect(slip('Pentru a-l vedea, introduceți parola mai jos.')).toEqual(['address: introduceți']);
    expect(slip('Vă rugăm să așteptați.')).toEqual(['address: vă', 'address: așteptați']);
    expect(slip('Încercați din nou.')).toEqual(['address: încercați']);
    // Beyond the glossary's list, a polite imperative opening a sentence.
    expect(slip('Eroare. Reîncărcați pagina.')).toEqual(['address: Reîncărcați']);
    expect(slip('Nu aveți permisiunea, dumneavoastră.')).toEqual([
      'address: dumneavoastră',
      'address: aveți',
    ]);
  });

  it('operation summaries that are not actions', () => {
    const ro = (key: string, text: string) => rules(summarySlips('ro', one(key, text)));
    expect(ro('events.doc.op.list', 'Listează evenimentele')).toEqual([]);
    expect(ro('events.doc.op.delete', 'Șterge (mută la gunoi) un eveniment')).toEqual([]);
    expect(ro('events.doc.op.list', 'Lista evenimentelor')).toEqual(['summary: not an action']);
    expect(ro('events.doc.op.create', 'Crearea unui eveniment')).toEqual([
      'summary: not an action',
    ]);
    expect(ro('venues.doc.list.summary', 'Locațiile')).toEqual(['summary: not an action']);
    // Only summaries are checked: a description may be a noun phrase.
    expect(ro('events.doc.cost', 'Prețul evenimentului')).toEqual([]);

    const hu = (key: string, text: string) => rules(summarySlips('hu', one(key, text)));
    expect(hu('events.doc.op.list', 'Események listázása')).toEqual([]);
    expect(hu('venues.doc.delete.summary', 'Helyszín áthelyezése a lomtárba')).toEqual([]);
    expect(hu('cli.user_list.summary', 'kilistázza a felhasználókat')).toEqual([]);
    expect(hu('events.doc.op.create', 'Új esemény')).toEqual(['summary: not an action']);
    expect(hu('events.doc.op.list', 'Eseménylista')).toEqual(['summary: not an action']);
    expect(hu('cli.user_list.summary', 'a felhasználók listája')).toEqual([
      'summary: not an action',
    ]);
  });

  it('straight or English quotes', () => {
    const slip = (text: string) => rules(quoteSlips(one('x.a', text)));
    expect(slip('A(z) „{slug}” keresőbarát név foglalt.')).toEqual([]);
    expect(slip('Az érték: `"post"`.')).toEqual([]); // code keeps its own quotes
    expect(slip('A(z) "{slug}" keresőbarát név foglalt.')).toEqual(['quotes: „…”']);
    expect(slip('Descriptorul “{slug}” este folosit.')).toEqual(['quotes: „…”']);
    expect(slip('Descriptorul „{slug} este folosit.')).toEqual(['quotes: „…”']);
  });

  it('ş and ţ with the cedilla, and Romanian without its diacritics', () => {
    const slip = (text: string) => rules(diacriticSlips(one('x.a', text)));
    expect(slip('Șterge o locație și returnează datele acesteia.')).toEqual([]);
    expect(slip('Acest eveniment nu mai este disponibil')).toEqual([]);
    expect(slip('Şterge o locaţie.')).toEqual(['ș/ț with the comma below']);
    expect(slip('Sterge o locatie si returneaza datele acesteia.')).toEqual([
      'diacritics: locatie',
    ]);
    expect(slip('Actualizeaza un eveniment')).toEqual(['diacritics: Actualizeaza']);
    expect(slip('Evenimentul nu a fost gasit in arhiva')).toEqual(['diacritics: gasit']);
    const stripped =
      'Filtreaza evenimentele dupa distanta locatiei fata de aceasta latitudine: sunt listate doar evenimentele a caror locatie se afla in raza de cautare din jurul punctului dat, fara exceptie, pentru fiecare pagina ceruta de client';
    expect(slip(stripped)).toEqual(['diacritics: Filtreaza', 'diacritics: none in the whole text']);
  });

  it('Hungarian compounds written apart', () => {
    const words = vocabulary(
      one(
        'x.a',
        'Az eseménykategóriák, a kategóriák, az alkalmazásjelszó, az alkalmazás, a jelszó és az esemény kategóriái',
      ),
    );
    const slip = (text: string) => rules(compoundSlips(one('x.b', text), words));
    expect(slip('Az eseménykategória neve')).toEqual([]);
    expect(slip('Az esemény kategóriái')).toEqual([]); // the event's categories: possessive
    expect(slip('A REST API dokumentációja, iCalendar-hírcsatornaként')).toEqual([]);
    expect(slip('Az esemény kategóriák listája')).toEqual([
      'compound: eseménykategóriák (esemény kategóriák)',
    ]);
    expect(slip('Új alkalmazás jelszó')).toEqual([
      'compound: alkalmazásjelszó (alkalmazás jelszó)',
    ]);
    expect(slip('Az események iCalendar hírcsatornaként')).toEqual([
      'compound: iCalendar hírcsatornaként',
    ]);
    expect(slip('Ez a dokumentáció, OpenAPI formátumban')).toEqual([
      'compound: OpenAPI formátumban',
    ]);
  });
});

describe('the terms added for the review', () => {
  it('cost, feed and record have one rendering, and Romanian post ID a required form', () => {
    const en = new Map([
      ['x.cost', 'The event cost'],
      ['x.feed', 'An iCalendar feed'],
      ['x.record', 'The record'],
      ['x.id', 'The event post ID'],
    ]);
    const hu = new Map([
      ['x.cost', 'Az esemény költsége'],
      ['x.feed', 'Egy iCalendar hírcsatorna'],
      ['x.record', 'A feljegyzés'],
      ['x.id', 'Az esemény bejegyzésazonosítója'],
    ]);
    const ro = new Map([
      ['x.cost', 'Costul evenimentului'],
      ['x.feed', 'Un feed iCalendar'],
      ['x.record', 'Recordul'],
      ['x.id', 'Identificatorul evenimentului'],
    ]);
    expect(show(bannedUses(glossary, 'hu', hu)).map((f) => f.split(' ')[1])).toEqual([
      '[cost:',
      '[feed:',
      '[record:',
    ]);
    expect(show(missingTerms(glossary, 'ro', en, ro)).map((f) => f.split(' [')[0])).toEqual([
      'x.id',
      'x.cost',
      'x.feed',
      'x.record',
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

  it(`addresses the reader in the ${glossary.address[language].form} form`, () => {
    expect(show2(addressSlips(glossary, language, texts))).toEqual([]);
  });

  it('names every operation with an action', () => {
    expect(show2(summarySlips(language, texts))).toEqual([]);
  });

  it('quotes „so”', () => {
    expect(show2(quoteSlips(texts))).toEqual([]);
  });

  if (language === 'ro') {
    it('writes ș and ț with the comma below, and every diacritic', () => {
      expect(show2(diacriticSlips(texts))).toEqual([]);
    });
  }

  if (language === 'hu') {
    it('writes compounds as one word, a name and a noun with a hyphen', () => {
      expect(show2(compoundSlips(texts, vocabulary(texts)))).toEqual([]);
    });
  }

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
