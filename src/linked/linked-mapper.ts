import { ZERO_DATE } from '../common/dates/index.js';
import { globalId } from '../common/http/links.js';
import { publicUrl } from '../common/http/public-url.js';
import type { PostColumns } from '../posts/post-columns.js';
import { effectiveStatus } from '../posts/post-status.js';
import { renderContent, renderExcerpt, renderTitle } from '../common/text/index.js';
import type { LinkedKind } from './linked-kind.js';
import { imageObject } from '../posts/image.js';
import type { Translations } from '../common/payload/tec-payload.js';

/** What the pure mappers need to know besides the record. */
export interface MapContext {
  siteUrl: string;
  nowUtc: string;
  /** PUBLIC_URL_TEMPLATE, when the site has its own front end. */
  publicUrlTemplate?: string;
}

export interface MapOptions {
  /** Add `json_ld` (single reads, and records embedded in a single event read). */
  jsonLd: boolean;
  /** The record is password protected and the request did not unlock it (BEHAVIOR §4.11). */
  redact: boolean;
  /** Language → id of each translation the caller may read; the record alone when absent. */
  translations?: Translations;
}

/**
 * `url` of BEHAVIOR §1.9: the pretty permalink, or `?post_type=…&p=id` while the record is
 * draft/pending/future or has no slug.
 */
export function postUrl(
  kind: LinkedKind,
  siteUrl: string,
  post: Pick<PostColumns, 'id' | 'slug'>,
  status: string,
  publicUrlTemplate?: string,
): string {
  if (!post.slug || status === 'draft' || status === 'pending' || status === 'future') {
    return `${siteUrl}/?post_type=${kind.postType}&p=${post.id}`;
  }
  // PUBLIC_URL_TEMPLATE may point it at the site's own front end.
  return publicUrl(
    `${siteUrl}/${kind.kind}/${post.slug}/`,
    {
      type: kind.kind,
      slug: post.slug,
      id: post.id,
      language: (post as Partial<Pick<PostColumns, 'language'>>).language,
    },
    publicUrlTemplate,
  );
}

/** PHP `empty()`: what TEC's `array_filter()` drops from venue and organizer objects. */
export function isEmptyValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === '' ||
    value === '0' ||
    value === 0 ||
    value === false ||
    (Array.isArray(value) && value.length === 0)
  );
}

export function omitEmpty(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => !isEmptyValue(v)));
}

/**
 * The fields every linked record starts with (TEC Post_Repository::get_venue_data /
 * get_organizer_data), before the empty ones are dropped.
 */
export function linkedPostHead(
  kind: LinkedKind,
  post: PostColumns,
  ctx: MapContext,
): Record<string, unknown> {
  const status = effectiveStatus(post, ctx.nowUtc);
  return {
    id: post.id,
    author: String(post.authorId),
    status,
    date: post.date,
    date_utc: post.dateUtc ?? ZERO_DATE,
    modified: post.modified,
    modified_utc: post.modifiedUtc,
    url: postUrl(kind, ctx.siteUrl, post, status, ctx.publicUrlTemplate),
    [kind.nameField]: renderTitle(post.title),
    description: renderContent(post.description),
    excerpt: renderExcerpt(post.excerpt),
    slug: post.slug ?? '',
    image: imageObject(post.imageId, post.imageUrl),
  };
}

export function globalIdFields(siteUrl: string, id: number) {
  const gid = globalId(siteUrl, id);
  return { global_id: gid, global_id_lineage: [gid] };
}
