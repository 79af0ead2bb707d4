import {
  globalIdFields,
  linkedPostHead,
  omitEmpty,
  type MapContext,
  type MapOptions,
} from '../linked/linked-mapper.js';
import type { TecOrganizer } from '../common/payload/tec-payload.js';
import { jsonLdHead } from '../posts/json-ld.js';
import { redactProtected } from '../posts/redact.js';
import { translationFields } from '../posts/translations.js';
import { ORGANIZER_KIND } from '../linked/linked-kind.js';
import type { OrganizerEntity } from './organizer.entity.js';

/**
 * The organizer object of BEHAVIOR §4.5 (TEC Post_Repository::get_organizer_data): every empty
 * value dropped, global ids, `language` and `translations` (CONTRACT §5) appended; redacted per
 * §4.11 when `options.redact`.
 */
export function toTecOrganizer(
  organizer: OrganizerEntity,
  ctx: MapContext,
  options: MapOptions,
): TecOrganizer {
  const head = linkedPostHead(ORGANIZER_KIND, organizer, ctx);
  const data: Record<string, unknown> = omitEmpty({
    ...head,
    phone: organizer.phone,
    website: organizer.website,
    email: organizer.email,
  });
  if (options.jsonLd) data.json_ld = organizerJsonLd(organizer);
  const out = {
    ...data,
    ...globalIdFields(ctx.siteUrl, organizer.id),
    ...translationFields(organizer, options.translations),
  };
  // omitEmpty leaves out what is empty, which the type cannot follow; the strict contract test
  // holds every answer to the schema this type is checked against.
  const payload = out as TecOrganizer;
  return options.redact ? redactProtected(payload) : payload;
}

/**
 * TEC JSON_LD/Organizer.php: a schema.org Person whose `url` is the organizer's website (TEC
 * overrides the page link with it).
 */
function organizerJsonLd(organizer: OrganizerEntity) {
  return {
    ...jsonLdHead('Person', organizer, organizer.website),
    telephone: organizer.phone,
    email: organizer.email,
    sameAs: organizer.website,
  };
}
