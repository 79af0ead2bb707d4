import { linkedPostController } from '../linked/linked-post.controller.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/organizer-fields.dto.js';
import { ListOrganizersQuery } from './dto/list-organizers.query.js';
import { OrganizersService } from './organizers.service.js';

/** `/organizers` routes (INTERFACE §4.4, BEHAVIOR §5.3, §6.2, §7.5): the linked-post routes. */
export class OrganizersController extends linkedPostController({
  collection: 'organizers',
  service: OrganizersService,
  listQuery: ListOrganizersQuery,
  createDto: CreateOrganizerDto,
  updateDto: UpdateOrganizerDto,
}) {}
