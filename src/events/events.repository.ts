import { Injectable } from '@nestjs/common';
import { addTo } from '../common/multimap.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, Not, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../common/actor.js';
import type { Language } from '../config/config.js';
import type { Page } from '../common/pagination/paginate.js';
import type { PostKind } from '../posts/post-id.entity.js';
import { type IdAhead, PostStore } from '../posts/post-store.js';
import { insertRows } from '../database/plain-insert.js';
import {
  selectRows,
  selectRowsJoined,
  type KeyedRows,
  type KeyedTable,
} from '../database/plain-select.js';
import { Caches } from '../cache/caches.js';
import { dependsOn } from '../cache/dependencies.js';
import { ANCHOR_TTL_MS, type PageAnchors } from '../cache/page-anchors.js';
import type { TotalsCache } from '../cache/totals-cache.js';
import type { VersionedCache } from '../cache/versioned-cache.js';
import { EventEntity, EventOrganizerEntity, EventTermEntity, listingOf } from './event.entity.js';
import type { EventFilters } from './event-filters.js';
import { OccurrencesRepository } from './series/occurrences.repository.js';
import {
  listQuery,
  listTags,
  occurrencesQuery,
  toListed,
  unionPage,
  type ListedEvent,
  type UnionRow,
} from './event-list-sql.js';

/** What an event's term links copy of it (term counts are index-only). */
export interface TermLinkState {
  id: number;
  status: string;
  dateUtc: string | null;
  language: Language;
}

/**
 * Every query and write on `events`, `event_organizers` and `event_terms`; the list's SQL is built
 * in event-list-sql.ts and run here, with its caches.
 */
@Injectable()
export class EventsRepository {
  /** Any committed write invalidates it at once. */
  private readonly totals: TotalsCache;
  /** Where pages start, under the same rules. */
  private readonly anchors: PageAnchors;
  /**
   * The rows of the pages read, until their list changes (its tags) or a second has passed (and
   * one more while they are read again).
   */
  private readonly pages: VersionedCache<UnionRow[]>;
  /** The pages one request is reading again while the others answer their kept rows. */
  private readonly refreshingPages = new Set<string>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly posts: PostStore,
    private readonly occurrences: OccurrencesRepository,
    caches: Caches,
  ) {
    this.totals = caches.totals('event_totals');
    this.anchors = caches.pageAnchors();
    this.pages = caches.pageRows<UnionRow>('event_pages');
  }

  private repo(manager?: EntityManager) {
    return (manager ?? this.ds.manager).getRepository(EventEntity);
  }

  /**
   * One page of the archive, in order, and the total over all pages (cached): two queries at
   * most, neither reading an event row (the presenter reads those it needs). Single events come
   * from `events`, recurring ones as their occurrences from `event_occurrences` (CONTRACT §9): one
   * item per occurrence, ordered by its start, counted in the total, with a provisional id.
   */
  async list(
    filters: EventFilters,
    page: Page,
    actor: Actor,
    language: Language,
    nowUtc: string,
  ): Promise<{ items: ListedEvent[]; total: number }> {
    const singles = listQuery(this.ds, filters, actor, language, nowUtc, 'e')
      // The recurring events are listed by their occurrences (a small set, built once).
      .andWhere('e.id NOT IN (SELECT rs.id FROM events rs WHERE rs.occurrences_until IS NOT NULL)');
    const occurrences = occurrencesQuery(this.ds, filters, actor, language, nowUtc);
    const key = JSON.stringify([filters, actor.user?.id ?? 0, actor.user?.role ?? '', language]);
    const tags = listTags(filters);
    dependsOn(tags);
    const total = await this.totals.get(
      key,
      async () => {
        const [a, pa] = singles.clone().select('COUNT(1)', 'n').getQueryAndParameters();
        // Under `series=once` an event with occurrences under the filters is listed once (at its
        // first one): the count of those events, without a look-up per occurrence.
        const [b, pb] = (
          filters.seriesOnce
            ? listQuery(this.ds, filters, actor, language, nowUtc, 'o').select(
                'COUNT(DISTINCT o.event_id)',
                'n',
              )
            : occurrences.clone().select('COUNT(1)', 'n')
        ).getQueryAndParameters();
        const [row] = await this.ds.query<Array<{ n: number | string }>>(
          `SELECT (${a}) + (${b}) AS n`,
          [...pa, ...pb],
        );
        return Number(row.n);
      },
      tags,
    );
    if (total <= page.offset) return { items: [], total };
    const pageKey = `${key} #${page.offset}+${page.perPage}`;
    // As the totals: for a second after its own, a page is answered at once while one request
    // reads it again, so the requests of that moment do not all wait for the range query (the
    // slowest hundredth of computed calendar months did); a write still makes it read first.
    const kept = this.pages.lookup(pageKey, Date.now(), ANCHOR_TTL_MS);
    if (kept && !kept.expired) return { items: kept.value.map(toListed), total };
    if (kept && !this.refreshingPages.has(pageKey)) {
      this.refreshingPages.add(pageKey);
      void this.readPage(key, pageKey, page, singles, occurrences, filters, tags)
        .catch(() => undefined)
        .finally(() => this.refreshingPages.delete(pageKey));
    }
    if (kept) return { items: kept.value.map(toListed), total };
    const rows = await this.readPage(key, pageKey, page, singles, occurrences, filters, tags);
    return { items: rows.map(toListed), total };
  }

  /** Reads a page of the list (from where it starts, when known) and keeps its rows. */
  private async readPage(
    key: string,
    pageKey: string,
    page: Page,
    singles: SelectQueryBuilder<EventEntity>,
    occurrences: SelectQueryBuilder<EventEntity>,
    filters: EventFilters,
    tags: string[],
  ): Promise<UnionRow[]> {
    const at = (offset: number) => `${key} @${offset}`;
    const found =
      page.offset > 0 ? this.anchors.lookup(at(page.offset), Date.now(), 1_000) : undefined;
    const version = this.anchors.version();
    /** The union's rows from `offset` (or from `anchor`), `limit` of them, in order. */
    const read = (limit: number, offset: number, anchor?: Array<string | number>) =>
      this.ds.query<UnionRow[]>(...unionPage(singles, occurrences, filters, limit, offset, anchor));
    const remember = (offset: number, row: UnionRow) =>
      this.anchors.set(at(offset), version, [row.k0, row.k1, row.k2], Date.now(), tags);
    // As pageIds does: an expired start still answers, while one request finds it again.
    if (found?.expired && !this.anchors.refreshing.has(at(page.offset))) {
      this.anchors.refreshing.add(at(page.offset));
      void read(1, page.offset)
        .then(([row]) => row && remember(page.offset, row))
        .catch(() => undefined)
        .finally(() => this.anchors.refreshing.delete(at(page.offset)));
    }
    const rows = await read(page.perPage + 1, page.offset, found?.value);
    this.pages.set(pageKey, version, rows.slice(0, page.perPage), Date.now(), tags);
    if (rows.length && page.offset > 0 && !found) remember(page.offset, rows[0]);
    // Where the next page starts, for a crawler walking the pages in order.
    const next = rows[page.perPage];
    if (next && !found?.expired) remember(page.offset + page.perPage, next);
    return rows.slice(0, page.perPage);
  }

  findById(id: number, manager?: EntityManager): Promise<EventEntity | null> {
    return this.repo(manager).findOneBy({ id });
  }

  /**
   * The event `id`, its row locked for the rest of the caller's transaction on MySQL/MariaDB
   * (SQLite has one writer at a time): a concurrent update waits for this one's commit.
   */
  findForUpdate(id: number, manager: EntityManager): Promise<EventEntity | null> {
    return this.repo(manager).findOne({ where: { id }, ...this.rowLock() });
  }

  /** Rows read for update: locked on MySQL/MariaDB (SQLite has one writer at a time). */
  private rowLock() {
    const type = this.ds.options.type;
    return type === 'mysql' || type === 'mariadb'
      ? { lock: { mode: 'pessimistic_write' as const } }
      : {};
  }

  /**
   * The other members of translation group `group` (caller's transaction), their rows locked
   * like findForUpdate's.
   */
  groupMembers(manager: EntityManager, group: number, exceptId: number): Promise<EventEntity[]> {
    return this.repo(manager).find({
      where: { translationGroup: group, id: Not(exceptId) },
      order: { id: 'ASC' },
      ...this.rowLock(),
    });
  }

  /** The events `ids` that exist, in no particular order: one query. */
  findByIds(ids: number[]): Promise<EventEntity[]> {
    return selectRows(this.ds.manager, EventEntity, 'id', ids);
  }

  /**
   * `findByIds` with the rows the extension modules keep of these events (`stored`, tables of
   * one row per event), read in the same statement: `joined[i]` holds table i's by event id.
   */
  findByIdsWith(
    ids: number[],
    stored: readonly KeyedTable[],
  ): Promise<{ rows: EventEntity[]; joined: KeyedRows[] }> {
    return selectRowsJoined(this.ds.manager, EventEntity, ids, stored);
  }

  findBySlug(slug: string, language: Language): Promise<EventEntity | null> {
    return this.repo().findOneBy({ slug, language });
  }

  /** Organizer ids of each event in linking order: one query for a whole page. */
  async organizerIds(eventIds: number[], manager?: EntityManager): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(eventIds.map((id) => [id, []]));
    if (!eventIds.length) return out;
    const rows = await selectRows(
      manager ?? this.ds.manager,
      EventOrganizerEntity,
      'eventId',
      eventIds,
      ['eventId', 'position'],
    );
    for (const row of rows) out.get(row.eventId)?.push(row.organizerId);
    return out;
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** A new id of the shared post sequence for an event. */
  allocateId(manager: EntityManager): Promise<number> {
    return this.posts.allocateId(manager, 'event');
  }

  /** The new event's id: the one a venue created with it took along (IdAhead), or a new one. */
  allocateAhead(manager: EntityManager, ahead: IdAhead): Promise<number> {
    return this.posts.allocateAhead(manager, ahead);
  }

  /** The kind of record behind a post id (events share the sequence with the other posts). */
  kindOf(id: number): Promise<PostKind | null> {
    return this.posts.kindOf(id);
  }

  /** Writes a new event's row once, with its image record and, given `slugBase`, its slug. */
  async insert(manager: EntityManager, event: EventEntity, slugBase?: string): Promise<void> {
    event.imageId = await this.posts.imageIdFor(manager, event.imageUrl);
    const insert = () => insertRows(manager, EventEntity, [event]);
    if (slugBase === undefined) await insert();
    else await this.posts.insertWithSlug(manager, EventEntity, event, slugBase, insert);
  }

  /**
   * Writes an existing event's row once, with its image record: every column in one UPDATE
   * (TypeORM's save would read the row again first to find what changed).
   */
  async save(manager: EntityManager, event: EventEntity): Promise<void> {
    event.imageId = await this.posts.imageIdFor(manager, event.imageUrl);
    const { id, ...columns } = event;
    await manager.update(EventEntity, { id }, columns);
    if (event.recurrence)
      await this.occurrences.syncOccurrenceListing(manager, { id, ...listingOf(event) });
  }

  /** Gives the event a unique slug (per language) from `base`; returns it. */
  assignSlug(manager: EntityManager, event: EventEntity, base: string): Promise<string> {
    return this.posts.assignSlug(manager, EventEntity, event.id, base, event.language);
  }

  /** Moves an event to the trash (CONTRACT §3), dated `modified`. */
  async trash(
    manager: EntityManager,
    id: number,
    modified: { local: string; utc: string },
  ): Promise<void> {
    await manager.update(
      EventEntity,
      { id },
      { status: 'trash', modified: modified.local, modifiedUtc: modified.utc },
    );
    await this.occurrences.syncOccurrenceListing(manager, { id, status: 'trash' });
  }

  /**
   * Copies the event's status, date and language onto its term links, which makes term counts
   * index-only (caller's transaction; every event write calls it).
   */
  async syncTermLinks(manager: EntityManager, event: TermLinkState): Promise<void> {
    await manager.update(
      EventTermEntity,
      { eventId: event.id },
      { eventStatus: event.status, eventDateUtc: event.dateUtc, eventLanguage: event.language },
    );
  }

  /** The ids of the terms an event carries (caller's transaction). */
  async termIdsOf(manager: EntityManager, eventId: number): Promise<number[]> {
    const rows = await manager.find(EventTermEntity, {
      where: { eventId },
      select: { termId: true },
    });
    return rows.map((r) => r.termId);
  }

  /** The ids of the terms an event carries, by WordPress taxonomy (caller's transaction, one statement). */
  async termIdsByTaxonomy(manager: EntityManager, eventId: number): Promise<Map<string, number[]>> {
    const rows: Array<{ termId: number | string; taxonomy: string }> = await manager
      .createQueryBuilder()
      .select('et.term_id', 'termId')
      .addSelect('t.taxonomy', 'taxonomy')
      .from(EventTermEntity, 'et')
      .innerJoin('terms', 't', 't.id = et.term_id')
      .where('et.event_id = :eventId', { eventId })
      .getRawMany();
    const out = new Map<string, number[]>();
    for (const row of rows) addTo(out, row.taxonomy, Number(row.termId));
    return out;
  }

  /**
   * Replaces the terms of `wpTaxonomy` that an event carries (caller's transaction; the links'
   * copies of the event's state follow with syncTermLinks).
   */
  async setTerms(
    manager: EntityManager,
    eventId: number,
    wpTaxonomy: string,
    termIds: number[],
  ): Promise<void> {
    await manager
      .createQueryBuilder()
      .delete()
      .from(EventTermEntity)
      .where('event_id = :eventId', { eventId })
      .andWhere('term_id IN (SELECT id FROM terms WHERE taxonomy = :taxonomy)', {
        taxonomy: wpTaxonomy,
      })
      .execute();
    await this.addTerms(manager, { id: eventId }, termIds);
  }

  /**
   * Links an event to terms it does not carry yet (caller's transaction), with copies of the
   * event's state when given (a new event's links need no syncTermLinks then). The links go
   * with the transaction's next statement (insertRows' `deferred`).
   */
  async addTerms(
    manager: EntityManager,
    event: Pick<TermLinkState, 'id'> & Partial<TermLinkState>,
    termIds: number[],
  ): Promise<void> {
    const ids = [...new Set(termIds)];
    if (!ids.length) return;
    await insertRows(
      manager,
      EventTermEntity,
      ids.map((termId) =>
        Object.assign(new EventTermEntity(), {
          eventId: event.id,
          termId,
          ...(event.status !== undefined && {
            eventStatus: event.status,
            eventDateUtc: event.dateUtc ?? null,
            eventLanguage: event.language,
          }),
        }),
      ),
      true,
    );
  }

  /** Links the event's organizers in order; a `created` event has none to remove first. */
  async setOrganizers(
    eventId: number,
    organizerIds: number[],
    manager: EntityManager,
    created: boolean,
  ): Promise<void> {
    if (!created) await manager.delete(EventOrganizerEntity, { eventId });
    if (organizerIds.length) {
      await manager.insert(
        EventOrganizerEntity,
        organizerIds.map((organizerId, position) => ({ eventId, organizerId, position })),
      );
    }
  }

  /** The events of venues `ids` lose their venue (the venues went to the trash). */
  async unlinkVenues(manager: EntityManager, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await this.repo(manager).update({ venueId: In(ids) }, { venueId: null });
  }

  /** The events of organizers `ids` lose them (the organizers went to the trash). */
  async unlinkOrganizers(manager: EntityManager, ids: number[]): Promise<void> {
    if (!ids.length) return;
    await manager.delete(EventOrganizerEntity, { organizerId: In(ids) });
  }

  async existingEventIds(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.repo().find({ where: { id: In(ids) }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }
}
