import { Injectable } from '@nestjs/common';
import { RecordCache } from '../database/record-cache.js';
import { TranslationStore } from '../common/posts/translation-store.js';
import { Writes } from '../database/writes.js';
import { UsersService } from '../auth/users/users.service.js';
import { asText } from '../common/text/index.js';
import { ORGANIZER_KIND } from '../linked/linked-kind.js';
import type { MapContext, MapOptions } from '../linked/linked-mapper.js';
import { LinkedPostService } from '../linked/linked-post.service.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from './dto/organizer-fields.dto.js';
import { OrganizerEntity } from './organizer.entity.js';
import { toTecOrganizer } from './organizer.mapper.js';
import { OrganizersRepository } from './organizers.repository.js';

/** Organizers: the shared linked-post flow plus phone, website and e-mail (BEHAVIOR §7.5). */
@Injectable()
export class OrganizersService extends LinkedPostService<
  OrganizerEntity,
  CreateOrganizerDto,
  UpdateOrganizerDto
> {
  protected readonly kind = ORGANIZER_KIND;
  protected readonly createDto = CreateOrganizerDto;
  protected readonly multiple = true;

  // Nest injects by this class's own parameter types (design:paramtypes), not the base class's.
  // oxlint-disable-next-line no-useless-constructor
  constructor(
    writes: Writes,
    translations: TranslationStore,
    repository: OrganizersRepository,
    users: UsersService,
    cache: RecordCache,
  ) {
    super(writes, translations, repository, users, cache);
  }

  protected toTec(record: OrganizerEntity, ctx: MapContext, options: MapOptions) {
    return toTecOrganizer(record, ctx, options);
  }

  protected newRecord(): OrganizerEntity {
    return new OrganizerEntity();
  }

  protected nameOf(input: CreateOrganizerDto | UpdateOrganizerDto): string | undefined {
    return input.organizer;
  }

  protected applyDetails(
    organizer: OrganizerEntity,
    input: CreateOrganizerDto | UpdateOrganizerDto,
    mode: 'create' | 'update',
  ): void {
    const creating = mode === 'create';
    // Contact fields are stored "as text" (BEHAVIOR §7.4.1); the website as given.
    if (input.phone !== undefined) organizer.phone = asText(input.phone);
    else if (creating) organizer.phone = '';
    if (input.email !== undefined) organizer.email = asText(input.email);
    else if (creating) organizer.email = '';
    if (input.website !== undefined) organizer.website = input.website.trim();
    else if (creating) organizer.website = '';
  }
}
