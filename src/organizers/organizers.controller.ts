import { linkedPostController } from '../linked/linked-post.controller.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/organizer-fields.dto.js';
import { ListOrganizersQuery } from './dto/list-organizers.query.js';
import { OrganizerQueries, OrganizerWrites } from './organizers.service.js';

/** `/organizers` routes (INTERFACE §4.4, BEHAVIOR §5.3, §6.2, §7.5): the linked-post routes. */
export class OrganizersController extends linkedPostController({
  collection: 'organizers',
  queries: OrganizerQueries,
  writes: OrganizerWrites,
  listQuery: ListOrganizersQuery,
  createDto: CreateOrganizerDto,
  updateDto: UpdateOrganizerDto,
}) {}
