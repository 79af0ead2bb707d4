import type { Language } from '../config/config.js';
import type { Translations } from '../common/payload/tec-payload.js';
import { translationFields } from '../posts/translations.js';
import { TAXONOMIES, taxonomyOf, type Taxonomy } from './taxonomy.js';
import { publicUrl } from '../common/http/public-url.js';
import type { TecEmbeddedTerm, TecTerm, TecTermUrls } from '../common/payload/tec-payload.js';

/** A stored term with what the representations need besides its own columns. */
export interface TermRecord {
  id: number;
  taxonomy: string;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events of the term's language carrying the term (BEHAVIOR §4.7, CONTRACT §5). */
  count: number;
  language: Language;
  /** Shared with the term's translations; null when it has none (CONTRACT §5). */
  translationGroup: number | null;
}

export type { TecEmbeddedTerm, TecTerm } from '../common/payload/tec-payload.js';

export interface TermLinkContext {
  siteUrl: string;
  /** `{SITE_URL}{BASE_PATH}{/lang}/cal/events/v1` */
  restBase: string;
  /** PUBLIC_URL_TEMPLATE comes from here, when the site has its own front end. */
  config?: { publicUrlTemplate?: string };
}

/** `urls` of both forms: own and collection REST URLs, and the parent's when there is one. */
function termUrls(
  term: Pick<TermRecord, 'id' | 'taxonomy' | 'parent'>,
  ctx: TermLinkContext,
): TecTermUrls {
  const collection = `${ctx.restBase}/${TAXONOMIES[taxonomyOf(term.taxonomy)].collection}`;
  return {
    self: `${collection}/${term.id}`,
    collection,
    ...(term.parent ? { up: `${collection}/${term.parent}` } : {}),
  };
}

/**
 * The term archive page (BEHAVIOR §1.9): `{SITE_URL}/events/category/{ancestors/}{slug}/` for
 * categories, `{SITE_URL}/tag/{slug}/` for tags. `path` holds the ancestors' slugs, root first.
 */
function termPageUrl(
  taxonomy: Taxonomy,
  slug: string,
  path: string[],
  siteUrl: string,
  term?: Pick<TermRecord, 'id' | 'language'>,
  publicUrlTemplate?: string,
): string {
  const full = taxonomy === 'tag' ? slug : [...path, slug].join('/');
  const own =
    taxonomy === 'tag' ? `${siteUrl}/tag/${slug}/` : `${siteUrl}/events/category/${full}/`;
  // PUBLIC_URL_TEMPLATE may point it at the site's own front end.
  if (!term) return own;
  return publicUrl(
    own,
    { type: taxonomy, slug: full, id: term.id, language: term.language },
    publicUrlTemplate,
  );
}

/**
 * List/single form (TEC `Post_Repository::prepare_term_data` over the WordPress terms
 * controller output: `link` renamed `url` and moved after `meta`, then `urls`), followed by the
 * term's `language` and `translations` (CONTRACT §5). `ancestors` are the slugs of the
 * category's ancestors, root first.
 */
export function toTecTerm(
  term: TermRecord,
  ancestors: string[],
  ctx: TermLinkContext,
  translations?: Translations,
): TecTerm {
  const taxonomy = taxonomyOf(term.taxonomy);
  return {
    id: term.id,
    count: term.count,
    description: term.description,
    name: term.name,
    slug: term.slug,
    taxonomy: term.taxonomy,
    ...(TAXONOMIES[taxonomy].hierarchical ? { parent: term.parent } : {}),
    meta: [],
    url: termPageUrl(
      taxonomy,
      term.slug,
      ancestors,
      ctx.siteUrl,
      term,
      ctx.config?.publicUrlTemplate,
    ),
    urls: termUrls(term, ctx),
    ...translationFields(term, translations),
  };
}

/** Embedded form: the raw WordPress term record with `term_id` renamed `id` (moved last). */
export function toEmbeddedTerm(term: TermRecord, ctx: TermLinkContext): TecEmbeddedTerm {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parent,
    count: term.count,
    filter: 'raw',
    id: term.id,
    urls: termUrls(term, ctx),
  };
}
