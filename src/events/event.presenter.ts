import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { canEdit, canRead } from '../auth/post-policy.js';
import { effectiveStatus } from '../posts/post-status.js';
import type { RequestContext } from '../common/http/request-context.js';
import { TranslationStore } from '../posts/translation-store.js';
import { EVENT_TRANSLATIONS } from '../posts/translations.js';
import { nowUtcSql } from '../database/columns.js';
import { RecordCache } from '../cache/record-cache.js';
import type { OrganizerEntity } from '../organizers/organizer.entity.js';
import { OrganizerEventLinks } from '../organizers/organizers.service.js';
import { EventTermLinks, type EventTerms } from '../terms/event-term-links.js';
import type { VenueEntity } from '../venues/venue.entity.js';
import { VenueEventLinks } from '../venues/venues.service.js';
import type { EventEntity } from './event.entity.js';
import type { TecEvent, TecOrganizer } from '../common/payload/tec-payload.js';
import { toTecEvent, unlockedFor, type EventLinks } from './event.mapper.js';
import { atFirstOccurrence, type OccurrenceDates } from './series/series.mapper.js';
import { EventsRepository } from './events.repository.js';
import { ExtensionRegistry } from '../extensions/registry.js';
import { contributionsOf, type StoredRead } from '../extensions/seams.js';

export interface PresentOptions {
  /** Single reads carry `json_ld`; lists do not (BEHAVIOR §4.2). */
  jsonLd: boolean;
  /** The password the request gave for protected events (`?password=`). */
  password: unknown;
  /**
   * RecordCache.version() taken before `rows` were read: the payloads built now are kept for
   * the next readers of the same kind. Without it, cached payloads are used but none kept.
   */
  readAt?: number;
}

/** What a write that just committed knows of its event's links besides the event itself. */
export interface WrittenLinks {
  /** The organizers the write linked, in order; undefined when it left them as they were. */
  organizerIds?: number[];
  /** The terms as the answer embeds them, when the write knows them (undefined: read them). */
  terms?: EventTerms;
  /**
   * The venue and organizers the write created inline, as a read gives them back
   * (LinkedWrites.createRecord): embedded without reading them again.
   */
  inserted?: { venues?: readonly VenueEntity[]; organizers?: readonly OrganizerEntity[] };
}

/**
 * An event as a write that just committed left it, what its answer is built from: the row, what
 * the write knows of its links, and its first occurrence when it is a series (null: none).
 */
export interface WrittenEvent {
  event: EventEntity;
  links: WrittenLinks;
  first: OccurrenceDates | null;
  /**
   * A create that carried none of the modules' write fields: the new event has no row in any
   * module's stored table (only a write contributor writes one, in the write's transaction), so
   * its answer reads none of them.
   */
  noStoredRows?: boolean;
}

/** The links of a page's events read beside their rows (presentIds). */
interface LinksRead {
  organizerIds: Map<number, number[]>;
  terms: Map<number, EventTerms>;
}

/**
 * Events as the API shows them: a page of records with their venue, organizers, terms and
 * translations, loaded in a fixed number of queries whatever the page size, then mapped
 * (toTecEvent). Every reader of events (the REST routes, pages, feeds) presents them here.
 */
@Injectable()
export class EventPresenter {
  constructor(
    private readonly events: EventsRepository,
    private readonly venues: VenueEventLinks,
    private readonly organizers: OrganizerEventLinks,
    private readonly terms: EventTermLinks,
    private readonly translations: TranslationStore,
    private readonly i18n: I18nService,
    private readonly cache: RecordCache,
    private readonly extensions: ExtensionRegistry,
  ) {}

  /**
   * The payloads of `rows`, in order: those another request built for a reader like this one
   * since the last write come from the RecordCache, the others are built together.
   */
  async present(
    rows: EventEntity[],
    ctx: RequestContext,
    opts: PresentOptions,
  ): Promise<TecEvent[]> {
    if (!rows.length) return [];
    const payloads = await this.cache.payloadsOf(
      'event',
      rows,
      readerVariant(ctx, opts),
      opts.readAt,
      (missing) => this.build(missing, ctx, opts),
    );
    return payloads as TecEvent[];
  }

  /**
   * The payloads of the events `ids` (a page of a list), in order: the rows are read only for
   * those the RecordCache does not hold, in one query. An event gone meanwhile is left out.
   */
  async presentIds(ids: number[], ctx: RequestContext, opts: PresentOptions): Promise<TecEvent[]> {
    if (!ids.length) return [];
    let links: Promise<LinksRead> | undefined;
    let stored: StoredRead | undefined;
    return this.cache.page<EventEntity, TecEvent>(
      'event',
      ids,
      readerVariant(ctx, opts),
      opts.readAt,
      // Read after the page's ids: a record whose visibility changed in between is left out.
      async (missing) => {
        // What only needs the ids is read beside the rows, not after them: one round trip less.
        links = this.readLinks(missing, ctx);
        // Awaited by build; a failure of the rows' read must not leave it unobserved.
        links.catch(() => undefined);
        const nowUtc = nowUtcSql();
        // The modules' stored values come with the rows (one statement).
        const tables = this.extensions.storedTables('event');
        const { rows, joined } = await this.events.findByIdsWith(missing, tables);
        stored = new Map(tables.map((table, i) => [table, joined[i]]));
        return rows.filter((e) =>
          canRead(ctx.actor, { authorId: e.authorId, status: effectiveStatus(e, nowUtc) }),
        );
      },
      (rows) => this.build(rows, ctx, opts, links, undefined, stored),
    );
  }

  /**
   * The organizer links and terms of the events `ids`: what an event's payload needs besides its
   * row. Of a write's one event, what the write knows (`written`) is not read, and its terms are
   * read with their counts in one query.
   */
  private async readLinks(
    ids: number[],
    ctx: RequestContext,
    written?: WrittenLinks,
  ): Promise<LinksRead> {
    const [id] = ids;
    const [organizerIds, terms] = await Promise.all([
      written?.organizerIds ? new Map([[id, written.organizerIds]]) : this.events.organizerIds(ids),
      written?.terms
        ? new Map([[id, written.terms]])
        : this.terms.embeddedTermsForEvents(ids, ctx, { justWritten: !!written }),
    ]);
    return { organizerIds, terms };
  }

  /**
   * The answer of a write: the event as the committed write left it (its row is not read back),
   * with the organizers' order and the terms when the write knows them; its venue and
   * organizers are read (after the commit, as they are) but for those the write inserted, the
   * terms it does not know with their counts in one query, the modules' stored values unless the
   * create carried none of their fields. A series is shown at its first occurrence, as a read of
   * its id shows it right after.
   */
  async presentWritten(
    written: WrittenEvent,
    ctx: RequestContext,
    password: unknown,
  ): Promise<TecEvent> {
    const { event, links, first } = written;
    const opts = { jsonLd: false, password };
    const stored: StoredRead | undefined = written.noStoredRows
      ? new Map(this.extensions.storedTables('event').map((table) => [table, new Map()]))
      : undefined;
    const payload = (await this.build([event], ctx, opts, undefined, links, stored)).get(event.id)!;
    return first ? atFirstOccurrence(payload, first, ctx) : payload;
  }

  /**
   * The payloads of `rows`. Their organizer links and terms: as read beside the rows (`read`),
   * else read now, but for what a write knows of them (`written`).
   */
  private async build(
    rows: EventEntity[],
    ctx: RequestContext,
    opts: PresentOptions,
    read?: Promise<LinksRead>,
    written?: WrittenLinks,
    stored?: StoredRead,
  ): Promise<Map<number, TecEvent>> {
    if (!rows.length) return new Map();
    // Organizer links and terms: as read beside the rows or known to a write, else read now.
    const ahead =
      read ??
      this.readLinks(
        rows.map((e) => e.id),
        ctx,
        written,
      );
    const venueIds = [
      ...new Set(rows.map((e) => e.venueId).filter((v): v is number => v !== null)),
    ];
    // Who may edit each event, asked once: it opens a protected event and shows the modules'
    // editing fields (context=edit).
    const editing = ctx.query.context === 'edit';
    const editable = new Map(rows.map((e) => [e.id, editing && canEdit(ctx.actor, e)]));
    const unlocked = new Map(
      rows.map((e) => [e.id, unlockedFor(e, opts.password, editable.get(e.id)!)]),
    );
    // Every lookup runs at once; the organizers follow their links.
    const [venues, [organizerIds, organizers], terms, translations, contributed] =
      await Promise.all([
        this.venues.embedMany(venueIds, ctx, { jsonLd: opts.jsonLd }, written?.inserted?.venues),
        ahead.then(async ({ organizerIds: linked }) => {
          const unique = [...new Set([...linked.values()].flat())];
          const embedded = await this.organizers.embedMany(
            unique,
            ctx,
            { jsonLd: opts.jsonLd },
            written?.inserted?.organizers,
          );
          return [linked, embedded] as const;
        }),
        ahead.then(({ terms: embedded }) => embedded),
        this.translations.load(EVENT_TRANSLATIONS, rows, { actor: ctx.actor, nowUtc: nowUtcSql() }),
        // The modules' fields (docs/extending.md), for the whole page at once.
        contributionsOf(
          this.extensions,
          'event',
          rows.map((e) => e.id),
          { locked: (id) => !unlocked.get(id), editing: (id) => editable.get(id)! },
          ctx,
          stored,
        ),
      ]);
    const freeLabel = this.i18n.translate('events.cost.free', { lang: ctx.language });
    const built = new Map(
      rows.map((e) => {
        const links: EventLinks = {
          venue: e.venueId !== null ? venues.get(e.venueId) : undefined,
          organizers: (organizerIds.get(e.id) ?? [])
            .map((o) => organizers.get(o))
            .filter((o): o is TecOrganizer => !!o),
          categories: terms.get(e.id)?.categories ?? [],
          tags: terms.get(e.id)?.tags ?? [],
          translations: translations.get(e.id),
          contributed: contributed?.fieldsOf(e.id),
        };
        const payload = toTecEvent(e, links, ctx, {
          jsonLd: opts.jsonLd,
          unlocked: unlocked.get(e.id)!,
          freeLabel,
          translate: (key, args) => this.i18n.translate(key, { lang: ctx.language, args }),
        });
        if (payload.json_ld) contributed?.adjustJsonLd(e.id, payload.json_ld);
        return [e.id, payload] as const;
      }),
    );
    return built;
  }
}

/**
 * Everything an event's payload depends on besides the stored rows: the language and REST base
 * of the request, who asks (translations, unlocking), the context, the password given, json_ld.
 */
function readerVariant(ctx: RequestContext, opts: PresentOptions): string {
  const user = ctx.actor.user;
  return JSON.stringify([
    ctx.language,
    ctx.restBase,
    user ? `${user.id}:${user.role}` : '',
    ctx.query.context === 'edit',
    typeof opts.password === 'string' ? opts.password : null,
    opts.jsonLd,
  ]);
}

/** A protected event is open with its password, or to its editors asking context=edit (§4.11). */
export function isUnlocked(event: EventEntity, password: unknown, ctx: RequestContext): boolean {
  return unlockedFor(event, password, ctx.query.context === 'edit' && canEdit(ctx.actor, event));
}
