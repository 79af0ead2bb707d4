import type { Language } from '../config/config.js';
import { sanitizeTitle, termName } from '../common/text/index.js';
import { termTranslations, type TranslationScope } from '../posts/translations.js';
import type { TermEntity } from './term.entity.js';
import { TAXONOMIES, type Taxonomy } from './taxonomy.js';

/** The column holds 200 characters (WordPress term names are limited alike). */
export const MAX_NAME_LENGTH = 200;

/** What a write's item lists and the list filters are matched against. */
export type TermRef = Pick<TermEntity, 'id' | 'taxonomy' | 'slug' | 'name' | 'language'>;

export /** Where the terms of a taxonomy are, for the translation helpers. */
const scopeOf = (taxonomy: Taxonomy): TranslationScope =>
  termTranslations(taxonomy, TAXONOMIES[taxonomy].wpName);

export /** What `findRefs` looks for: numbers as ids, strings as slugs and names. */
function refsOf(items: Array<number | string>) {
  const texts = items.map(String);
  return {
    ids: texts.filter((s) => /^\d{1,15}$/.test(s)).map(Number),
    slugs: texts.map((s) => sanitizeTitle(s)),
    names: texts.map((s) => termName(s)),
  };
}

export /** The term of `language` whose slug, else (case-insensitive, stored) name, is `text`. */
function matchRef(found: TermRef[], text: string, language: Language): TermRef | undefined {
  const slug = sanitizeTitle(text);
  const name = termName(text).toLowerCase();
  const inLanguage = found.filter((term) => term.language === language);
  return (
    (slug ? inLanguage.find((term) => term.slug === slug) : undefined) ??
    (name ? inLanguage.find((term) => term.name.toLowerCase() === name) : undefined)
  );
}
