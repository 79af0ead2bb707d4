import {
  globalIdFields,
  linkedPostHead,
  omitEmpty,
  type MapContext,
  type MapOptions,
} from '../linked/linked-mapper.js';
import type { TecVenue } from '../common/payload/tec-payload.js';
import { jsonLdHead } from '../posts/json-ld.js';
import { redactProtected } from '../posts/redact.js';
import { translationFields } from '../posts/translations.js';
import { VENUE_KIND } from '../linked/linked-kind.js';
import type { VenueEntity } from './venue.entity.js';

/**
 * The venue object of BEHAVIOR §4.4 (TEC Post_Repository::get_venue_data): empty values dropped,
 * then the map flags and global ids appended, then `language` and `translations` (CONTRACT §5);
 * redacted per §4.11 when `options.redact`.
 */
export function toTecVenue(venue: VenueEntity, ctx: MapContext, options: MapOptions): TecVenue {
  const head = linkedPostHead(VENUE_KIND, venue, ctx);
  const data: Record<string, unknown> = omitEmpty({
    ...head,
    address: venue.address,
    city: venue.city,
    country: venue.country,
    province: venue.province,
    state: venue.state,
    zip: venue.zip,
    phone: venue.phone,
    website: venue.website,
    stateprovince: venue.stateprovince,
  });
  // Coordinates are shown whenever stored, 0 included (the premium geocoder's fields).
  if (venue.geoLat !== null) data.geo_lat = venue.geoLat;
  if (venue.geoLng !== null) data.geo_lng = venue.geoLng;
  if (options.jsonLd) data.json_ld = venueJsonLd(venue, head.url as string);
  const out = {
    ...data,
    show_map: venue.showMap,
    show_map_link: venue.showMapLink,
    ...globalIdFields(ctx.siteUrl, venue.id),
    ...translationFields(venue, options.translations),
  };
  // omitEmpty leaves out what is empty, which the type cannot follow; the strict contract test
  // holds every answer to the schema this type is checked against.
  const payload = out as TecVenue;
  return options.redact ? redactProtected(payload) : payload;
}

/** TEC JSON_LD/Venue.php: a schema.org Place (BEHAVIOR §4.9). */
function venueJsonLd(venue: VenueEntity, url: string): Record<string, unknown> {
  return {
    ...jsonLdHead('Place', venue, url),
    address: {
      '@type': 'PostalAddress',
      ...omitEmpty({
        streetAddress: venue.address,
        addressLocality: venue.city,
        addressRegion: venue.stateprovince || venue.state || venue.province,
        postalCode: venue.zip,
        addressCountry: venue.country,
      }),
    },
    telephone: venue.phone,
    sameAs: venue.website,
  };
}

/**
 * `stateprovince` when none is given (BEHAVIOR §7.4.2): the state for US addresses (or no
 * country), else the province.
 */
export function deriveStateProvince(v: { state: string; province: string; country: string }) {
  if (v.state && ['', 'US', 'United States'].includes(v.country)) return v.state;
  return v.province;
}
