import { linkedPostController } from '../linked/linked-post.controller.js';
import { CreateVenueDto, UpdateVenueDto } from './dto/venue-fields.dto.js';
import { ListVenuesQuery } from './dto/list-venues.query.js';
import { VenueQueries, VenueWrites } from './venues.service.js';

/** `/venues` routes (INTERFACE §4.3, BEHAVIOR §5.3, §6.2, §7.4): the linked-post routes. */
export class VenuesController extends linkedPostController({
  collection: 'venues',
  queries: VenueQueries,
  writes: VenueWrites,
  listQuery: ListVenuesQuery,
  createDto: CreateVenueDto,
  updateDto: UpdateVenueDto,
}) {}
