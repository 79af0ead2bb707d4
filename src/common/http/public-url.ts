import type { Language } from '../../config/config.js';
import type { RecordKind } from '../records/record-kinds.js';

/*
 * PUBLIC_URL_TEMPLATE (CONTRACT §1): where the `url` of a published record points when a site
 * has its own front end, e.g. `https://www.example.org/{lang}/{type}/{slug}/`. Unset, the
 * `url`s are this service's own pages (`{SITE_URL}/event/{slug}/`, BEHAVIOR §1.9). The mappers
 * get it from the configuration through their context (AppConfig.publicUrlTemplate).
 */

/** A record's `{type}`: its kind. */
export type PublicType = RecordKind;

/**
 * A published record's `url`: `ownPage` (this service's page), or `template` filled in
 * (`{slug}` of a category is its path, `parent/child`; values are URL-encoded per segment).
 */
export function publicUrl(
  ownPage: string,
  record: { type: PublicType; slug: string; id: number; language?: Language },
  template: string | undefined,
): string {
  if (!template) return ownPage;
  const slug = record.slug.split('/').map(encodeURIComponent).join('/');
  return template
    .split('{type}')
    .join(record.type)
    .split('{slug}')
    .join(slug)
    .split('{id}')
    .join(String(record.id))
    .split('{lang}')
    .join(record.language ?? '');
}
