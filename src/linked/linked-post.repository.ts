import type {
  DataSource,
  EntityManager,
  EntityTarget,
  ObjectLiteral,
  Repository,
  SelectQueryBuilder,
} from 'typeorm';
import { In } from 'typeorm';
import { insertRows } from '../database/plain-insert.js';
import { asReadBack, selectRows } from '../database/plain-select.js';
import type { Actor } from '../common/actor.js';
import type { Language } from '../config/config.js';
import type { Page } from '../common/pagination/paginate.js';
import type { PostKind } from '../posts/post-id.entity.js';
import type { PostColumns } from '../posts/post-columns.js';
import type { PostStatus } from '../auth/post-policy.js';
import { ANY_STATUSES } from '../posts/post-status.js';
import { applyPostVisibility, postVisibilitySql } from '../posts/visibility.js';
import type { IdAhead, PostStore } from '../posts/post-store.js';
import { pageIds, type PageOrder } from '../database/page-ids.js';
import { caseFolded } from '../database/like.js';
import type { Caches } from '../cache/caches.js';
import { dependsOn, listTag, recordTag } from '../cache/dependencies.js';
import type { PageAnchors } from '../cache/page-anchors.js';
import type { TotalsCache } from '../cache/totals-cache.js';
import type { VersionedCache } from '../cache/versioned-cache.js';
import type { EventCondition, LinkedEventUsage } from './linked-event-usage.js';

/** The list filters of BEHAVIOR §5.3, parsed and checked. */
export interface LinkedListFilters {
  language: Language;
  actor: Actor;
  statuses: PostStatus[];
  nowUtc: string;
  /** Fragments of `search`, each of which must occur in one same field. */
  search?: string[];
  event?: number;
  hasEvents?: boolean;
  onlyWithUpcoming?: boolean;
}

/**
 * Queries of one linked-post table (`venues` or `organizers`). The list's event conditions are
 * SQL the events module gives (LinkedEventUsage), since it owns the events' tables. Every list
 * filter rides on an index: (language, status, date) for the list itself, the events' own for
 * the event conditions.
 */
export abstract class LinkedPostRepository<E extends PostColumns & ObjectLiteral> {
  protected abstract readonly entity: EntityTarget<E>;
  /** SQL alias of the record table in list queries. */
  protected abstract readonly alias: string;
  /** Columns `search` looks in (BEHAVIOR §5.3). */
  protected abstract readonly searchColumns: readonly string[];

  private readonly totals: TotalsCache;
  /** Where pages start, under the same rules. */
  private readonly anchors: PageAnchors;
  /** existingIds' answers (the ids found), by the ids asked, until the next write. */
  private readonly existing: VersionedCache<number[]>;

  constructor(
    protected readonly dataSource: DataSource,
    protected readonly posts: PostStore,
    caches: Caches,
  ) {
    this.totals = caches.totals('linked_totals');
    this.anchors = caches.pageAnchors();
    this.existing = caches.untilChanged('linked_ids', 1_000);
  }

  /** The kind of the table's records in the shared post id sequence. */
  protected abstract readonly kind: PostKind;

  /** The events' answer to the list's event filters, given once the application starts. */
  private usage?: LinkedEventUsage;

  /** Called once, by the events module (events/linked-usage-sql.ts, through LinkedEventLinks). */
  usedByEvents(usage: LinkedEventUsage): void {
    this.usage = usage;
  }

  protected repo(manager?: EntityManager): Repository<E> {
    return (manager ?? this.dataSource.manager).getRepository(this.entity);
  }

  findById(id: number, manager?: EntityManager): Promise<E | null> {
    return this.repo(manager).findOne({ where: { id } as never });
  }

  /** By slug, among the records of one language (CONTRACT §5); any status. */
  findBySlug(slugs: string[], language: Language): Promise<E | null> {
    return this.repo().findOne({ where: { slug: In(slugs), language } as never });
  }

  /** Records of these ids, any status and language, in one query. */
  findByIds(ids: number[]): Promise<E[]> {
    return selectRows(this.dataSource.manager, this.entity, 'id', ids);
  }

  /**
   * Which of `ids` are records of this table (any status and language). The answer is kept
   * until the next write: a list filtered by a venue or an organizer checks that it exists on
   * every request, and only a write can change that.
   */
  async existingIds(ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const key = ids.join(',');
    // Whether a record exists changes only by a write naming it: its creation, its deletion (an
    // id never names a record of another kind). A page of one venue keeps its list while
    // other venues are written.
    const tags = ids.map((id) => recordTag(this.kind, id));
    dependsOn(tags);
    const kept = this.existing.get(key);
    if (kept) return new Set(kept);
    const version = this.existing.version();
    const rows = await this.repo()
      .createQueryBuilder(this.alias)
      .select(`${this.alias}.id`, 'id')
      .where(`${this.alias}.id IN (:...ids)`, { ids })
      .getRawMany<{ id: number | string }>();
    const found = rows.map((r) => Number(r.id));
    this.existing.set(key, version, found, Date.now(), tags);
    return new Set(found);
  }

  /**
   * TEC's duplicate check on create (BEHAVIOR §7.4.2): a non-trashed record of the language whose
   * name, and description when one is given, match case-insensitively. Only records the caller
   * may see are candidates, so a create never reveals or takes over a hidden draft.
   */
  async findDuplicate(
    manager: EntityManager,
    name: string,
    description: string | undefined,
    language: Language,
    actor: Actor,
    nowUtc: string,
  ): Promise<E | null> {
    // One plain statement: every create with an inline record runs it, and the query builder
    // would rewrite it on each call.
    const a = this.alias;
    const params: unknown[] = [language, name];
    // As IDX_<table>_title holds it.
    let where = `${a}.language = ? AND ${caseFolded(this.dataSource, `${a}.title`)} = ${caseFolded(this.dataSource, '?')}`;
    if (description) {
      where += ` AND LOWER(${a}.description) = LOWER(?)`;
      params.push(description);
    }
    where += ` AND ${postVisibilitySql(a, actor, [...ANY_STATUSES], nowUtc, params)}`;
    const table = this.dataSource.driver.escape(this.repo(manager).metadata.tableName);
    // Most creates find none: the look-up selects the id only, and the row is read when found.
    const [found] = (await manager.query(
      `SELECT ${a}.id AS id FROM ${table} ${a} WHERE ${where} ORDER BY ${a}.id ASC LIMIT 1`,
      params,
    )) as Array<{ id: number | string }>;
    return found ? this.findById(Number(found.id), manager) : null;
  }

  /**
   * One page of the list and the total: two queries (the total, cached; the page) whatever the
   * page and its size.
   */
  /** The ids of one page, in archive order, and the total (cached): no row is read. */
  async list(filters: LinkedListFilters, page: Page): Promise<[number[], number]> {
    const a = this.alias;
    const qb = this.repo()
      .createQueryBuilder(a)
      .where(`${a}.language = :language`, { language: filters.language });
    applyPostVisibility(qb, a, filters.actor, filters.statuses, filters.nowUtc);
    if (filters.search?.length) this.whereSearch(qb, filters.search);
    if (filters.event !== undefined) {
      qb.andWhere(this.eventsExist(qb, { event: filters.event }));
    }
    if (filters.hasEvents !== undefined) {
      const exists = this.eventsExist(qb, { anyListed: true });
      qb.andWhere(filters.hasEvents ? exists : `NOT ${exists}`);
    }
    if (filters.onlyWithUpcoming) {
      const { actor, statuses, nowUtc } = filters;
      qb.andWhere(this.eventsExist(qb, { upcoming: { actor, statuses, nowUtc } }));
    }
    const { actor, nowUtc: _now, ...rest } = filters;
    const key = JSON.stringify([rest, actor.user?.id ?? 0, actor.user?.role ?? '']);
    // What the list depends on (docs/caches.md): its records, and the events its filters ask about.
    const tags = [listTag(this.kind)];
    if (filters.event !== undefined || filters.hasEvents !== undefined || filters.onlyWithUpcoming)
      tags.push('events');
    dependsOn(tags);
    const total = await this.totals.get(key, () => qb.getCount(), tags);
    if (total <= page.offset) return [[], total];
    // Archive order: the archive index (language, date, id, with the visibility columns).
    const order: PageOrder = [
      ['date', 'DESC'],
      ['id', 'DESC'],
    ];
    return [await pageIds(qb, a, order, page, { cache: this.anchors, key, tags }), total];
  }

  /**
   * BEHAVIOR §5.3: a record matches when one of its searchable fields contains every fragment
   * (case-insensitive). Fragments hold only letters, digits and `-`, so no LIKE escaping.
   */
  private whereSearch(qb: SelectQueryBuilder<E>, fragments: string[]): void {
    const params: Record<string, string> = {};
    fragments.forEach((f, i) => (params[`search_${i}`] = `%${f.toLowerCase()}%`));
    const perColumn = this.searchColumns.map(
      (column) =>
        `(${fragments.map((_, i) => `LOWER(${this.alias}.${column}) LIKE :search_${i}`).join(' AND ')})`,
    );
    qb.andWhere(`(${perColumn.join(' OR ')})`, params);
  }

  /** `EXISTS (...)` over this record's events that meet `condition` (BEHAVIOR §5.3). */
  private eventsExist(qb: SelectQueryBuilder<E>, condition: EventCondition): string {
    if (!this.usage) throw new Error(`${this.alias}: the events module is not loaded`);
    return this.usage.exists(qb, this.alias, condition);
  }

  /** Gives record `id` a unique slug derived from `base` (concurrency-safe, §7.1.8). */
  assignSlug(manager: EntityManager, id: number, base: string, language: Language) {
    return this.posts.assignSlug(manager, this.entity, id, base, language);
  }

  /**
   * A new id of the shared post sequence for a record of this table (caller's transaction),
   * with `ahead`'s in the same statement when it has none yet.
   */
  allocateId(manager: EntityManager, ahead?: IdAhead): Promise<number> {
    return this.posts.allocateId(manager, this.kind, ahead);
  }

  /** An `image` given as the id of an image record becomes its URL (CONTRACT §6 "Images"). */
  imageInput(value: unknown): Promise<unknown> {
    return this.posts.imageInput(value);
  }

  /** Is `id` an event's? (the `event` list filter, BEHAVIOR §5.3) */
  async isEvent(id: number): Promise<boolean> {
    return (await this.posts.kindOf(id)) === 'event';
  }

  /** Writes a new record's row once, with its image record and, given `slugBase`, its slug. */
  async insert(manager: EntityManager, record: E, slugBase?: string): Promise<void> {
    record.imageId = await this.posts.imageIdFor(manager, record.imageUrl);
    const insert = () => insertRows(manager, this.entity, [record]);
    if (slugBase === undefined) await insert();
    else await this.posts.insertWithSlug(manager, this.entity, record, slugBase, insert);
  }

  /** `record` as a read gives it back once `insert` wrote it (undefined: a column defaulted). */
  asReadBack(manager: EntityManager, record: E): E | undefined {
    return asReadBack(manager, this.entity, record);
  }

  async save(manager: EntityManager, record: E): Promise<void> {
    record.imageId = await this.posts.imageIdFor(manager, record.imageUrl);
    await this.repo(manager).save(record as never);
  }
}
