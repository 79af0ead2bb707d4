import type { Provider, Type } from '@nestjs/common';
import { UsersService } from '../auth/users/users.service.js';
import { TrashPurger } from '../posts/purge-trash.js';
import { TranslationStore } from '../posts/translation-store.js';
import type { PostColumns } from '../posts/post-columns.js';
import { RecordCache } from '../cache/record-cache.js';
import { Writes } from '../database/writes.js';
import { ExtensionRegistry } from '../extensions/registry.js';
import type { LinkedDefinition, LinkedWriteFields } from './linked-definition.js';
import type { LinkedEventLinks } from './linked-event-links.js';
import type { LinkedPostRepository } from './linked-post.repository.js';
import type { LinkedQueries } from './linked-queries.js';
import type { LinkedWrites } from './linked-writes.js';

/** The classes a kind's module provides: its repository and its three services' tokens. */
export interface LinkedClasses<
  E extends PostColumns,
  C extends LinkedWriteFields,
  U extends LinkedWriteFields,
  P extends object = object,
> {
  repository: Type<LinkedPostRepository<E>>;
  queries: new (
    ...args: ConstructorParameters<typeof LinkedQueries<E, C, U, P>>
  ) => LinkedQueries<E, C, U, P>;
  writes: new (
    ...args: ConstructorParameters<typeof LinkedWrites<E, C, U, P>>
  ) => LinkedWrites<E, C, U, P>;
  links: new (
    ...args: ConstructorParameters<typeof LinkedEventLinks<E, C, U, P>>
  ) => LinkedEventLinks<E, C, U, P>;
}

/**
 * The providers of one linked-post kind. The services are generic classes given the kind's
 * definition, which Nest cannot inject by type: each is built by a factory under its kind's own
 * class, so that other modules inject `VenueEventLinks`, `OrganizerQueries`, ... by type.
 */
export function linkedProviders<
  E extends PostColumns,
  C extends LinkedWriteFields,
  U extends LinkedWriteFields,
  P extends object = object,
>(def: LinkedDefinition<E, C, U, P>, classes: LinkedClasses<E, C, U, P>): Provider[] {
  const { repository, queries, writes, links } = classes;
  return [
    repository,
    {
      provide: queries,
      useFactory: (
        repo: LinkedPostRepository<E>,
        translations: TranslationStore,
        cache: RecordCache,
        extensions: ExtensionRegistry,
      ) => new queries(def, repo, translations, cache, extensions),
      inject: [repository, TranslationStore, RecordCache, ExtensionRegistry],
    },
    {
      provide: writes,
      useFactory: (
        reads: LinkedQueries<E, C, U, P>,
        repo: LinkedPostRepository<E>,
        scope: Writes,
        translations: TranslationStore,
        users: UsersService,
        purger: TrashPurger,
      ) => new writes(def, reads, repo, scope, translations, users, purger),
      inject: [queries, repository, Writes, TranslationStore, UsersService, TrashPurger],
    },
    {
      provide: links,
      useFactory: (
        reads: LinkedQueries<E, C, U, P>,
        writer: LinkedWrites<E, C, U, P>,
        repo: LinkedPostRepository<E>,
      ) => new links(def, reads, writer, repo),
      inject: [queries, writes, repository],
    },
  ];
}
