import { isTruthy } from '../common/http/transforms.js';
import { asText } from '../common/text/index.js';
import type { TecVenue } from '../common/payload/tec-payload.js';
import type { LinkedDefinition } from '../linked/linked-definition.js';
import { LinkedEventLinks } from '../linked/linked-event-links.js';
import { VENUE_KIND } from '../linked/linked-kind.js';
import { LinkedQueries } from '../linked/linked-queries.js';
import { LinkedWrites } from '../linked/linked-writes.js';
import { CreateVenueDto, UpdateVenueDto, VenueFieldsDto } from './dto/venue-fields.dto.js';
import { VenueEntity } from './venue.entity.js';
import { deriveStateProvince, toTecVenue } from './venue.mapper.js';

const ADDRESS_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone'] as const;

/** Venues: the shared linked-post flow plus the venue's own fields (BEHAVIOR §7.4). */
export const VENUE_DEFINITION: LinkedDefinition<
  VenueEntity,
  CreateVenueDto,
  UpdateVenueDto,
  TecVenue
> = {
  kind: VENUE_KIND,
  createDto: CreateVenueDto,
  multiple: false,
  toTec: toTecVenue,
  newRecord: () => new VenueEntity(),
  nameOf: (input) => input.venue,
  applyDetails(venue, input, mode) {
    const creating = mode === 'create';
    // Address and contact fields are stored "as text" (BEHAVIOR §7.4.1).
    for (const field of ADDRESS_FIELDS) {
      const value = input[field];
      if (value !== undefined) venue[field] = asText(value);
      else if (creating) venue[field] = '';
    }
    if (input.website !== undefined) venue.website = input.website.trim();
    else if (creating) venue.website = '';
    // Absent flags read true (TEC stores none); given ones use truthy semantics (§7.4.2).
    if (input.show_map !== undefined) venue.showMap = isTruthy(input.show_map);
    else if (creating) venue.showMap = true;
    if (input.show_map_link !== undefined) venue.showMapLink = isTruthy(input.show_map_link);
    else if (creating) venue.showMapLink = true;
    if (input.geo_lat !== undefined) venue.geoLat = input.geo_lat === '' ? null : input.geo_lat;
    else if (creating) venue.geoLat = null;
    if (input.geo_lng !== undefined) venue.geoLng = input.geo_lng === '' ? null : input.geo_lng;
    else if (creating) venue.geoLng = null;

    // §7.4.2 on create; on update (D8) only when an address part is given without a value.
    const given = asText(input.stateprovince ?? '');
    const addressTouched = ['stateprovince', 'state', 'province', 'country'].some(
      (f) => input[f as keyof VenueFieldsDto] !== undefined,
    );
    if (given) venue.stateprovince = given;
    else if (creating || addressTouched) venue.stateprovince = deriveStateProvince(venue);
  },
};

/** Venue lists and single venues, for the routes and the public pages. */
export class VenueQueries extends LinkedQueries<
  VenueEntity,
  CreateVenueDto,
  UpdateVenueDto,
  TecVenue
> {}
/** Venue creates, updates and trash, for the routes and the importer. */
export class VenueWrites extends LinkedWrites<
  VenueEntity,
  CreateVenueDto,
  UpdateVenueDto,
  TecVenue
> {}
/** An event's venue: embedded, named by a write, filtered on. */
export class VenueEventLinks extends LinkedEventLinks<
  VenueEntity,
  CreateVenueDto,
  UpdateVenueDto,
  TecVenue
> {}
