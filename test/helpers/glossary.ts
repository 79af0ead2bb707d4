import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The terminology checks of test/i18n-glossary.spec.ts: catalogue loading and the glossary's
 * pattern language (docs/i18n/glossary.json, "about"). The style checks are in glossary-slips.ts,
 * the rendering of docs/i18n/GLOSSARY.md in glossary-render.ts.
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
