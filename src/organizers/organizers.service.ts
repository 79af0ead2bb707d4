import { asText } from '../common/text/index.js';
import type { TecOrganizer } from '../common/payload/tec-payload.js';
import type { LinkedDefinition } from '../linked/linked-definition.js';
import { LinkedEventLinks } from '../linked/linked-event-links.js';
import { ORGANIZER_KIND } from '../linked/linked-kind.js';
import { LinkedQueries } from '../linked/linked-queries.js';
import { LinkedWrites } from '../linked/linked-writes.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/organizer-fields.dto.js';
import { OrganizerEntity } from './organizer.entity.js';
import { toTecOrganizer } from './organizer.mapper.js';

/** Organizers: the shared linked-post flow plus phone, website and e-mail (BEHAVIOR §7.5). */
export const ORGANIZER_DEFINITION: LinkedDefinition<
  OrganizerEntity,
  CreateOrganizerDto,
  UpdateOrganizerDto,
  TecOrganizer
> = {
  kind: ORGANIZER_KIND,
  createDto: CreateOrganizerDto,
  multiple: true,
  toTec: toTecOrganizer,
  newRecord: () => new OrganizerEntity(),
  nameOf: (input) => input.organizer,
  applyDetails(organizer, input, mode) {
    const creating = mode === 'create';
    // Contact fields are stored "as text" (BEHAVIOR §7.4.1); the website as given.
    if (input.phone !== undefined) organizer.phone = asText(input.phone);
    else if (creating) organizer.phone = '';
    if (input.email !== undefined) organizer.email = asText(input.email);
    else if (creating) organizer.email = '';
    if (input.website !== undefined) organizer.website = input.website.trim();
    else if (creating) organizer.website = '';
  },
};

/** Organizer lists and single organizers, for the routes and the public pages. */
export class OrganizerQueries extends LinkedQueries<
  OrganizerEntity,
  CreateOrganizerDto,
  UpdateOrganizerDto,
  TecOrganizer
> {}
/** Organizer creates, updates and trash, for the routes and the importer. */
export class OrganizerWrites extends LinkedWrites<
  OrganizerEntity,
  CreateOrganizerDto,
  UpdateOrganizerDto,
  TecOrganizer
> {}
/** An event's organizers: embedded, named by a write, filtered on. */
export class OrganizerEventLinks extends LinkedEventLinks<
  OrganizerEntity,
  CreateOrganizerDto,
  UpdateOrganizerDto,
  TecOrganizer
> {}
