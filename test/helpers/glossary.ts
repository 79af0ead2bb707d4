import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The terminology checks of test/i18n-glossary.spec.ts: catalogue loading, the glossary's pattern
 * language (docs/i18n/glossary.json, "about") and the rendering of docs/i18n/GLOSSARY.md.
 */
const ROOT = join(__dirname, '..', '..');
const I18N = join(ROOT, 'i18n');
const GLOSSARY_JSON = join(ROOT, 'docs', 'i18n', 'glossary.json');
export const GLOSSARY_MD = join(ROOT, 'docs', 'i18n', 'GLOSSARY.md');

export interface Rendering {
  preferred: string[];
  expect?: string[];
  banned: string[];
  note?: string;
}
export interface Term {
  /** English patterns: a text matching one must be translated with an `expect` form. */
  en?: string[];
  /** Keys exempt from that check, and why. */
  except?: string[];
  why?: string;
  [language: string]: Rendering | string[] | string | undefined;
}
/** How a language addresses the reader, and the forms of the other address it must not use. */
interface Address {
  form: string;
  example: string;
  banned: string[];
}
export interface Glossary {
  about: string;
  address: Record<string, Address>;
  terms: Record<string, Term>;
}

export function loadGlossary(): Glossary {
  return JSON.parse(readFileSync(GLOSSARY_JSON, 'utf8')) as Glossary;
}

export function rendering(term: Term, language: string): Rendering | undefined {
  const r = term[language];
  return r && typeof r === 'object' && !Array.isArray(r) ? r : undefined;
}

const PLURAL_FORMS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/** A message with a form per plural category (`{one, few, other}`), chosen by its count. */
export function isPlural(value: unknown): value is Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return (
    'other' in value && entries.every(([k, v]) => PLURAL_FORMS.has(k) && typeof v === 'string')
  );
}

/**
 * `file.key.path` → text, for every string of every catalogue of one language. A plural message
 * is its `other` form under its own key, and each other form under `key#form`.
 */
export function catalogue(language: string, dir = I18N): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (value: unknown, prefix: string) => {
    if (isPlural(value)) {
      for (const [form, text] of Object.entries(value))
        out.set(form === 'other' ? prefix : `${prefix}#${form}`, text);
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) walk(v, `${prefix}.${k}`);
    } else out.set(prefix, String(value));
  };
  for (const file of readdirSync(join(dir, language))
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    walk(JSON.parse(readFileSync(join(dir, language, file), 'utf8')), file.replace(/\.json$/, ''));
  }
  return out;
}

/** What a pattern may contain: letters, digits, spaces, - ' . and the * wildcard. */
const PATTERN_SYNTAX = /^[\p{L}\p{M}\p{N}*][\p{L}\p{M}\p{N} '’.*-]*$/u;

const LETTER = '[\\p{L}\\p{M}\\p{N}]';
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A glossary pattern as a regular expression. It is a literal with lookarounds, and the only
 * repetitions are \p{L}* after a word and \s+ between words, which cannot overlap, so matching
 * stays linear in the length of the text.
 */
export function compile(pattern: string): RegExp {
  if (!PATTERN_SYNTAX.test(pattern)) throw new Error(`bad glossary pattern: ${pattern}`);
  const open = pattern.startsWith('*');
  const close = pattern.endsWith('*');
  const body = pattern.slice(open ? 1 : 0, close ? -1 : undefined);
  const words = body
    .trim()
    .split(/\s+/)
    .map((w) => w.split('*').map(escape).join(`${LETTER}*`));
  return new RegExp(
    `${open ? '' : `(?<!${LETTER})`}${words.join('\\s+')}${close ? '' : `(?!${LETTER})`}`,
    'iu',
  );
}

/**
 * Parameter names and other code that a translation must carry unchanged: `code`, {placeholders},
 * snake_case names (post_parent, starts_*), quoted names ("post") and namespaces (cal/events/v1).
 */
const CODE =
  /`[^`\n]*`|\{\w+\}|["“„][a-z][a-z0-9_]*["”]|[a-z]+\/[a-z]+\/v\d+|[a-z][a-z0-9]*(?:_[a-z0-9*]+)+/gu;

export function identifiers(text: string): string[] {
  return [...text.matchAll(CODE)].map((m) => m[0].replace(/^["“„`]|["”`]$/g, ''));
}

/** The text without its code, so that a parameter name is never taken for prose. */
export function prose(text: string): string {
  return text.replace(CODE, ' ');
}

export function keeps(text: string, identifier: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(identifier, from);
    if (at < 0) return false;
    const before = text.slice(0, at);
    const after = text.slice(at + identifier.length);
    if (!/[\p{L}\p{N}_]$/u.test(before) && !/^[\p{L}\p{N}_]/u.test(after)) return true;
    from = at + 1;
  }
}

interface Finding {
  key: string;
  term: string;
  pattern: string;
  text: string;
}

/** Every use of a banned variant in the texts of one language. */
export function bannedUses(glossary: Glossary, language: string, texts: Map<string, string>) {
  const rules = Object.entries(glossary.terms).flatMap(([term, entry]) =>
    (rendering(entry, language)?.banned ?? []).map((pattern) => ({
      term,
      pattern,
      regex: compile(pattern),
    })),
  );
  const found: Finding[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    for (const { term, pattern, regex } of rules) {
      if (regex.test(plain)) found.push({ key, term, pattern, text });
    }
  }
  return found;
}

/** Texts whose English names a term (its `en` patterns) but whose translation uses none of its `expect` forms. */
export function missingTerms(
  glossary: Glossary,
  language: string,
  english: Map<string, string>,
  texts: Map<string, string>,
) {
  const found: Finding[] = [];
  for (const [term, entry] of Object.entries(glossary.terms)) {
    const expect = rendering(entry, language)?.expect;
    if (!entry.en || !expect) continue;
    const source = entry.en.map(compile);
    const target = expect.map(compile);
    for (const [key, en] of english) {
      const text = texts.get(key);
      if (text === undefined || entry.except?.includes(key)) continue;
      if (!source.some((r) => r.test(prose(en)))) continue;
      if (!target.some((r) => r.test(prose(text)))) {
        found.push({ key, term, pattern: expect.join(' | '), text });
      }
    }
  }
  return found;
}

/** A text that breaks a rule of style rather than of terminology. */
interface Slip {
  key: string;
  rule: string;
  text: string;
}

/** The text without its `code`, the only thing that may keep straight quotes or any spelling. */
const withoutCode = (text: string) => text.replace(/`[^`\n]*`/g, ' ');

/** Formal address in a catalogue that addresses the reader informally (glossary "address"). */
export function addressSlips(glossary: Glossary, language: string, texts: Map<string, string>) {
  const rules = (glossary.address[language]?.banned ?? []).map((p) => [p, compile(p)] as const);
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    const before = found.length;
    for (const [pattern, regex] of rules) {
      if (regex.test(plain)) found.push({ key, rule: `address: ${pattern}`, text });
    }
    if (found.length > before) continue;
    // Romanian's polite imperative opening a sentence: Introduceți, Încercați, Verificați. (Inside
    // a sentence the same ending is mostly a participle: organizatorii mutați la gunoi.)
    if (language === 'ro') {
      const polite = /(?:^|[.!?]\s+)(\p{Lu}\p{Ll}+(?:ați|eți|iți|âți))(?![\p{L}-])/u.exec(plain);
      if (polite) found.push({ key, rule: `address: ${polite[1]}`, text });
    }
  }
  return found;
}

/**
 * The summary of an operation of the API (`*.op.*`, `*.doc.<operation>.summary`) or of a command
 * (`cli.*.summary`): an action, as the English is. Romanian starts with a verb in the present
 * (Listează, Creează, Mută, Șterge), not a noun (Lista, Crearea, Evenimente); Hungarian names
 * the action with a verbal noun (Események listázása) or, in the command help, a verb
 * (kilistázza, töröl), never a bare noun (Új esemény).
 */
const OPERATION_SUMMARY = /\.op\.\w+$|\.doc\.\w+\.summary$|^cli\.\w+\.summary$/;

export function summarySlips(language: string, texts: Map<string, string>) {
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    if (!OPERATION_SUMMARY.test(key)) continue;
    const words = withoutCode(text).match(/[\p{L}-]+/gu) ?? [];
    const first = words[0]?.toLowerCase() ?? '';
    let action: boolean;
    if (language === 'ro') {
      action =
        /(?:ează|ește|ă|e)$/u.test(first) &&
        !/(?:are|ere|ire|âre|ente|uri|ări|ții|ile|ele|le)$/u.test(first);
    } else if (language === 'hu') {
      const clause = withoutCode(text).split(/[,(:;]/)[0];
      const verbalNoun = /\p{L}{3,}(?:ás|és)(?:a|e|uk|ük)(?!\p{L})/iu.test(clause);
      // A verb of the command help: importálja, kilistázza, törli, létrehoz, töröl, ad (ki).
      const verb =
        key.startsWith('cli.') &&
        (clause.match(/\p{L}+/gu) ?? []).some((w) =>
          /^(?:\p{L}*(?:[bcdfghjklmnprstvz]j[ae]|zz[ae]|ss[ae]|[lrznt]i|ál|ol|oz|ez|öz|ít|öl|ől)|ad)$/u.test(
            w,
          ),
        );
      action = verbalNoun || verb;
    } else continue;
    if (!action) found.push({ key, rule: 'summary: not an action', text });
  }
  return found;
}

/** Straight or English quotes where Hungarian and Romanian both quote „so”. */
export function quoteSlips(texts: Map<string, string>) {
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = withoutCode(text);
    const opening = [...plain.matchAll(/„/g)].length;
    const closing = [...plain.matchAll(/”/g)].length;
    if (/["“]/.test(plain) || opening !== closing) {
      found.push({ key, rule: 'quotes: „…”', text });
    }
  }
  return found;
}

/**
 * Romanian words misspelt without their diacritics: și, să, în, dacă, după, fără, încă, când,
 * până; -ează verbs (actualizeaza); -ție, -țiune nouns (locatie, optiune); fișier, câmp, găsit.
 */
const WITHOUT_DIACRITICS =
  /(?<![\p{L}-])(?!martie(?![\p{L}-]))(?:si|sa|in|intr|daca|dupa|fara|intre|inca|cand|catre|pana|asa|niste|isi|iti|fisier\p{L}*|campul|campuri\p{L}*|gasit\p{L}*|\p{L}+eaza|\p{L}+(?:tie|tia|tii|tiei|tiile|tiilor|tiune|tiuni|tiunea))(?![\p{L}-])/iu;

/**
 * Romanian spelling: ș and ț with the comma below (not the cedilla of ş, ţ), and diacritics at all:
 * a word misspelt without them, or a long text (30 words or more) without one ă, â, î, ș or ț.
 */
export function diacriticSlips(texts: Map<string, string>) {
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    if (/[şţŞŢ]/.test(plain)) found.push({ key, rule: 'ș/ț with the comma below', text });
    const bare = WITHOUT_DIACRITICS.exec(plain);
    if (bare) found.push({ key, rule: `diacritics: ${bare[0]}`, text });
    const words = plain.match(/\p{L}[\p{L}-]*/gu) ?? [];
    if (words.length >= 30 && !/[ăâîșțĂÂÎȘȚ]/.test(plain)) {
      found.push({ key, rule: 'diacritics: none in the whole text', text });
    }
  }
  return found;
}

/** Names before a Hungarian noun, which they join with a hyphen: iCalendar-hírcsatorna, JSON-tömb. */
const NAME_APART =
  /(?<![\p{L}-])(?:iCalendar|RSS|REST|JSON|HTML|HTTP|URL|OpenAPI|WordPress|IANA|Unix|CSV|ICS|Swagger)\s+(?:fájl|hírcsatorn|cím|tömb|törzs|dokumentum|formátum|objektum|azonosító|bejegyzés|kérés|válasz|felület|index|gyökér|útvonal|végpont|időbélyeg|időzón|paraméter|mező|fejléc|oldal|hivatkozás|lekérdezés|kifejezés|szöveg)\p{L}*/u;

/**
 * Whether a Hungarian noun is possessed (kategóriái, címkéi, azonosítója, dokumentációját), by its
 * ending: -ja/-je or -(j)ai/-(j)ei/-ái/-éi, then at most one case ending.
 */
const POSSESSED =
  /(?:j[aeáé]|j?[aáeé]i)(?:t|nak|nek|ban|ben|ba|be|ból|ből|ra|re|ról|ről|hoz|hez|höz|val|vel|n|ként|tól|től|ig|ért)?$/u;

/**
 * Hungarian compounds written apart: a name and a noun without their hyphen, or two words that
 * the catalogues write as one (eseménykategória, alkalmazásjelszó) written as two. `words` are
 * every word of the catalogues; a compound is a word of them made of two others (each at least
 * four letters). Its members apart are a slip unless the second is possessed, which makes them
 * two words of a possessive phrase: az esemény kategóriái (the event's categories) is right.
 */
export function compoundSlips(texts: Map<string, string>, words: Set<string>) {
  const compounds = new Map<string, { head: string; tail: string; regex: RegExp }>();
  // Built from the catalogue's own words, each a literal: no pattern comes from outside.
  for (const word of words) {
    for (let i = 4; i <= word.length - 4; i++) {
      const head = word.slice(0, i).replace(/-$/, '');
      const tail = word.slice(i).replace(/^-/, '');
      if (tail.length < 4 || !words.has(head) || !words.has(tail)) continue;
      const stem = tail.replace(/[aeáé]$/, '');
      compounds.set(`${head} ${tail}`, {
        head,
        tail,
        regex: new RegExp(`(?<![\\p{L}-])${head}\\s+(${stem}[\\p{L}]*)`, 'giu'),
      });
    }
  }
  const found: Slip[] = [];
  for (const [key, text] of texts) {
    const plain = prose(text);
    const name = NAME_APART.exec(plain);
    if (name) found.push({ key, rule: `compound: ${name[0]}`, text });
    const lower = plain.toLowerCase();
    for (const { head, tail, regex } of compounds.values()) {
      if (!lower.includes(head)) continue;
      for (const match of plain.matchAll(regex)) {
        if (POSSESSED.test(match[1].toLowerCase())) continue;
        found.push({ key, rule: `compound: ${head}${tail} (${match[0]})`, text });
      }
    }
  }
  return found;
}

/** Every word of some texts, in lower case: the vocabulary compoundSlips knows compounds from. */
export function vocabulary(...catalogues: Map<string, string>[]): Set<string> {
  const out = new Set<string>();
  for (const texts of catalogues)
    for (const text of texts.values())
      for (const w of prose(text).match(/\p{L}[\p{L}-]*/gu) ?? []) out.add(w.toLowerCase());
  return out;
}

/** docs/i18n/GLOSSARY.md, generated from the JSON so that the two never disagree. */
export function renderGlossary(glossary: Glossary, languages: string[]): string {
  const names: Record<string, string> = { hu: 'Hungarian', ro: 'Romanian' };
  const cell = (s: string) => s.replace(/\|/g, '\\|');
  const code = (list: string[] | undefined) =>
    list?.length ? list.map((p) => `\`${p}\``).join(', ') : '—';
  const lines = [
    '# Translation glossary',
    '',
    '<!-- Generated from glossary.json by test/i18n-glossary.spec.ts',
    '     (UPDATE_GLOSSARY=1 npx vitest run test/i18n-glossary.spec.ts); do not edit by hand. -->',
    '',
    'One rendering per recurring term in the Hungarian and Romanian catalogues (`i18n/hu`, `i18n/ro`).',
    '`npm test` fails when a catalogue uses a banned variant, when a translation drops a parameter',
    'name that the English text names (`post_parent`, `{id}`, `cal/events/v1`, "post"), and when an',
    'English text names a term (column *English*) whose translation uses none of the expected forms.',
    ...Object.entries(glossary.address).map(
      ([language, a]) =>
        `${names[language] ?? language} addresses the reader in the ${a.form} form: *${a.example}* (never ${a.banned
          .slice(0, 6)
          .map((p) => `*${p}*`)
          .join(', ')}…).`,
    ),
    'Quotes are „…” in both languages; Romanian writes ș and ț with the comma below; Hungarian',
    'writes compounds as one word, and a name before a noun with a hyphen (*iCalendar-hírcsatorna*).',
    'Operation summaries are actions: *Szervezők listázása*, *Listează organizatorii*.',
    '',
    '## How patterns match',
    '',
    glossary.about,
    '',
  ];
  for (const language of languages) {
    lines.push(`## ${names[language] ?? language} (${language})`, '');
    lines.push('| Term | English | Preferred | Expected forms | Banned variants | Note |');
    lines.push('| --- | --- | --- | --- | --- | --- |');
    for (const [term, entry] of Object.entries(glossary.terms)) {
      const r = rendering(entry, language);
      if (!r) continue;
      const except = entry.except?.length
        ? ` Not expected in ${entry.except.map((k) => `\`${k}\``).join(', ')}: ${entry.why ?? ''}`
        : '';
      lines.push(
        `| ${cell(term)} | ${code(entry.en)} | ${cell(r.preferred.join('; '))} | ${code(r.expect)} | ${code(r.banned)} | ${cell(`${r.note ?? ''}${except}`.trim())} |`,
      );
    }
    lines.push('');
  }
  return lines.join('\n');
}
