import { Injectable } from '@nestjs/common';
import { RecordCache } from '../database/record-cache.js';
import { TranslationStore } from '../common/posts/translation-store.js';
import { Writes } from '../database/writes.js';
import { UsersService } from '../auth/users/users.service.js';
import { isTruthy } from '../common/http/transforms.js';
import { asText } from '../common/text/index.js';
import { VENUE_KIND } from '../linked/linked-kind.js';
import type { MapContext, MapOptions } from '../linked/linked-mapper.js';
import { LinkedPostService } from '../linked/linked-post.service.js';
import { CreateVenueDto, UpdateVenueDto, VenueFieldsDto } from './dto/venue-fields.dto.js';
import { VenueEntity } from './venue.entity.js';
import { deriveStateProvince, toTecVenue } from './venue.mapper.js';
import { VenuesRepository } from './venues.repository.js';

const ADDRESS_FIELDS = ['address', 'city', 'country', 'province', 'state', 'zip', 'phone'] as const;

/** Venues: the shared linked-post flow plus the venue's own fields (BEHAVIOR §7.4). */
@Injectable()
export class VenuesService extends LinkedPostService<VenueEntity, CreateVenueDto, UpdateVenueDto> {
  protected readonly kind = VENUE_KIND;
  protected readonly createDto = CreateVenueDto;
  protected readonly multiple = false;

  // Nest injects by this class's own parameter types (design:paramtypes), not the base class's.
  // oxlint-disable-next-line no-useless-constructor
  constructor(
    writes: Writes,
    translations: TranslationStore,
    repository: VenuesRepository,
    users: UsersService,
    cache: RecordCache,
  ) {
    super(writes, translations, repository, users, cache);
  }

  protected toTec(record: VenueEntity, ctx: MapContext, options: MapOptions) {
    return toTecVenue(record, ctx, options);
  }

  protected newRecord(): VenueEntity {
    return new VenueEntity();
  }

  protected nameOf(input: CreateVenueDto | UpdateVenueDto): string | undefined {
    return input.venue;
  }

  protected applyDetails(
    venue: VenueEntity,
    input: CreateVenueDto | UpdateVenueDto,
    mode: 'create' | 'update',
  ): void {
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
  }
}
