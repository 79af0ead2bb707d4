import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Brackets, DataSource, EntityManager, In, type SelectQueryBuilder } from 'typeorm';
import type { Actor } from '../auth/actor.js';
import type { Language } from '../config/config.js';
import type { Page } from '../common/pagination/paginate.js';
import type { PostKind } from '../common/posts/post-id.entity.js';
import { PostStore } from '../common/posts/post-store.js';
import { applyPostVisibility } from '../common/posts/visibility.js';
import { containsPattern, LIKE_ESCAPE } from '../database/like.js';
import { PageAnchors, pageIds, type PageOrder } from '../database/page-ids.js';
import { insertRows } from '../database/plain-insert.js';
import { TotalsCache } from '../database/totals-cache.js';
import { WriteVersion } from '../database/write-version.js';
import { EventEntity, EventOrganizerEntity, EventTermEntity } from './event.entity.js';
import type { EventFilters } from './event-filters.js';
import { boundingBox, haversineLimit, type Geofence } from './geofence.js';

/** What an event's term links copy of it (term counts are index-only). */
export interface TermLinkState {
  id: number;
  status: string;
  dateUtc: string | null;
  language: Language;
}

/** Every query and write on `events`, `event_organizers` and `event_terms`. */
@Injectable()
export class EventsRepository {
  /** Any committed write invalidates it at once. */
  private readonly totals: TotalsCache;
  /** Where pages start, under the same rules. */
  private readonly anchors: PageAnchors;

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly posts: PostStore,
    versions: WriteVersion,
  ) {
    this.totals = new TotalsCache(versions, 1_000, 1_000, 'event_totals');
    this.anchors = new PageAnchors(versions);
  }

  private repo(manager?: EntityManager) {
    return (manager ?? this.ds.manager).getRepository(EventEntity);
  }

  /**
   * The ids of one page of the archive, in order, and the total over all pages (cached): two
   * queries at most, neither reading a row (the presenter reads those it needs).
   */
  async list(
    filters: EventFilters,
    page: Page,
    actor: Actor,
    language: Language,
    nowUtc: string,
  ): Promise<{ ids: number[]; total: number }> {
    const qb = this.listQuery(filters, actor, language, nowUtc);
    const key = JSON.stringify([filters, actor.user?.id ?? 0, actor.user?.role ?? '', language]);
    const total = await this.totals.get(key, () => qb.getCount());
    if (total <= page.offset) return { ids: [], total };
    // Archive order (IDX_events_listing): by start; `include` lists by publication date (D2).
    const order: PageOrder = filters.include
      ? [
          ['date', 'ASC'],
          ['id', 'ASC'],
        ]
      : [
          ['startDate', 'ASC'],
          ['date', 'ASC'],
          ['id', 'ASC'],
        ];
    return { ids: await pageIds(qb, 'e', order, page, { cache: this.anchors, key }), total };
  }

  private listQuery(
    f: EventFilters,
    actor: Actor,
    language: Language,
    nowUtc: string,
  ): SelectQueryBuilder<EventEntity> {
    const qb = this.repo()
      .createQueryBuilder('e')
      .where('e.language = :language', { language })
      // Hidden events never appear in lists, whoever asks (BEHAVIOR §5.2.2).
      .andWhere('e.hideFromListings = :hidden', { hidden: 0 });
    applyPostVisibility(qb, 'e', actor, f.statuses, nowUtc);
    if (f.startDate) qb.andWhere('e.startDate >= :startDate', { startDate: f.startDate });
    if (f.endDate) qb.andWhere('e.endDate <= :endDate', { endDate: f.endDate });
    if (f.startsBefore)
      qb.andWhere('e.startDate < :startsBefore', { startsBefore: f.startsBefore });
    if (f.startsAfter) qb.andWhere('e.startDate > :startsAfter', { startsAfter: f.startsAfter });
    if (f.endsBefore) qb.andWhere('e.endDate < :endsBefore', { endsBefore: f.endsBefore });
    if (f.endsAfter) qb.andWhere('e.endDate > :endsAfter', { endsAfter: f.endsAfter });
    if (f.search) {
      f.search.include.forEach((word, i) => {
        const p = { [`s${i}`]: containsPattern(word) };
        qb.andWhere(
          new Brackets((w) =>
            w
              .where(`LOWER(e.title) LIKE :s${i} ${LIKE_ESCAPE}`, p)
              .orWhere(`LOWER(e.excerpt) LIKE :s${i} ${LIKE_ESCAPE}`, p)
              .orWhere(`LOWER(e.description) LIKE :s${i} ${LIKE_ESCAPE}`, p),
          ),
        );
      });
      f.search.exclude.forEach((word, i) => {
        const p = { [`x${i}`]: containsPattern(word) };
        qb.andWhere(
          `NOT (LOWER(e.title) LIKE :x${i} ${LIKE_ESCAPE} OR LOWER(e.excerpt) LIKE :x${i} ${LIKE_ESCAPE} OR LOWER(e.description) LIKE :x${i} ${LIKE_ESCAPE})`,
          p,
        );
      });
    }
    if (f.categoryIds) termFilter(qb, 'cat', f.categoryIds);
    if (f.tagIds) termFilter(qb, 'tag', f.tagIds);
    if (f.venueIds) qb.andWhere('e.venueId IN (:...venueIds)', { venueIds: orNone(f.venueIds) });
    if (f.organizerIds) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = e.id AND eo.organizer_id IN (:...organizerIds))',
        { organizerIds: orNone(f.organizerIds) },
      );
    }
    if (f.featured !== undefined)
      qb.andWhere('e.featured = :featured', { featured: f.featured ? 1 : 0 });
    if (f.include) qb.andWhere('e.id IN (:...include)', { include: orNone(f.include) });
    if (f.postParent !== undefined)
      qb.andWhere('e.postParent = :postParent', { postParent: f.postParent });
    if (f.hasGeo) {
      // Most venues have coordinates: the few without them make a small set that the engines
      // build once, while each event's venue comes from IDX_events_listing (a set of the many
      // with them was probed row by row: ten times slower at 100,000 events).
      qb.andWhere(
        'e.venueId IS NOT NULL AND e.venueId NOT IN (SELECT gv.id FROM venues gv WHERE gv.geo_lat IS NULL OR gv.geo_lng IS NULL)',
      );
    }
    if (f.geofence) geofenceFilter(qb, f.geofence);
    return qb;
  }

  findById(id: number, manager?: EntityManager): Promise<EventEntity | null> {
    return this.repo(manager).findOneBy({ id });
  }

  /** The events `ids` that exist, in no particular order: one query. */
  findByIds(ids: number[]): Promise<EventEntity[]> {
    return ids.length ? this.repo().findBy({ id: In(ids) }) : Promise.resolve([]);
  }

  findBySlug(slug: string, language: Language): Promise<EventEntity | null> {
    return this.repo().findOneBy({ slug, language });
  }

  /** Organizer ids of each event in linking order: one query for a whole page. */
  async organizerIds(eventIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map<number, number[]>(eventIds.map((id) => [id, []]));
    if (!eventIds.length) return out;
    const rows = await this.ds.getRepository(EventOrganizerEntity).find({
      where: { eventId: In(eventIds) },
      order: { eventId: 'ASC', position: 'ASC' },
    });
    for (const row of rows) out.get(row.eventId)?.push(row.organizerId);
    return out;
  }

  // ------------------------------------------------------------------ writes (caller's transaction)

  /** A new id of the shared post sequence for an event. */
  allocateId(manager: EntityManager): Promise<number> {
    return this.posts.allocateId(manager, 'event');
  }

  /**
   * Says that the transaction will allocate an event's id (allocateId) later, so that a record
   * it creates first (an inline venue) takes both ids in one statement.
   */
  announceId(manager: EntityManager): void {
    this.posts.announceId(manager, 'event');
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
   * event's state when given (a new event's links need no syncTermLinks then).
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

  async existingEventIds(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await this.repo().find({ where: { id: In(ids) }, select: { id: true } });
    return new Set(rows.map((r) => r.id));
  }
}

/** `IN ()` is invalid SQL; an impossible id keeps an empty list meaning "nothing". */
const orNone = (ids: number[]) => (ids.length ? ids : [-1]);

function termFilter(qb: SelectQueryBuilder<EventEntity>, name: string, ids: number[]) {
  qb.andWhere(
    `EXISTS (SELECT 1 FROM event_terms et_${name} WHERE et_${name}.event_id = e.id AND et_${name}.term_id IN (:...${name}Ids))`,
    { [`${name}Ids`]: orNone(ids) },
  );
}

/**
 * Events whose venue lies within the fence: the venues of the bounding box (a range on the indexed
 * `IDX_venues_geo`, one or two longitude ranges), then the exact great-circle test
 * hav(θ) = sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2) ≤ sin²(r/2R) — in SQL on both engines, so that
 * counts and pages stay exact in the same two queries. The venue set is uncorrelated: the engines
 * evaluate it once per query.
 */
function geofenceFilter(qb: SelectQueryBuilder<EventEntity>, fence: Geofence) {
  const box = boundingBox(fence);
  const lngRanges = box.lngRanges
    .filter(([lo, hi]) => lo > -180 || hi < 180)
    .map((_, i) => `gf.geo_lng BETWEEN :gfLngLo${i} AND :gfLngHi${i}`);
  const params: Record<string, number> = {
    gfMinLat: box.minLat,
    gfMaxLat: box.maxLat,
    gfLat: fence.lat,
    gfLng: fence.lng,
    gfCosLat: Math.cos((fence.lat * Math.PI) / 180),
    gfLimit: haversineLimit(fence.radiusKm),
  };
  box.lngRanges.forEach(([lo, hi], i) => {
    params[`gfLngLo${i}`] = lo;
    params[`gfLngHi${i}`] = hi;
  });
  const half = (column: string, centre: string) => `SIN(RADIANS(${column} - ${centre}) / 2)`;
  const dLat = half('gf.geo_lat', ':gfLat');
  const dLng = half('gf.geo_lng', ':gfLng');
  qb.andWhere(
    `e.venueId IN (SELECT gf.id FROM venues gf WHERE gf.geo_lat BETWEEN :gfMinLat AND :gfMaxLat` +
      ` AND gf.geo_lng IS NOT NULL` +
      (lngRanges.length ? ` AND (${lngRanges.join(' OR ')})` : '') +
      ` AND ${dLat} * ${dLat} + :gfCosLat * COS(RADIANS(gf.geo_lat)) * ${dLng} * ${dLng} <= :gfLimit)`,
    params,
  );
}
