import { Inject, Injectable, Optional } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.js';
import { InjectDataSource } from '@nestjs/typeorm';
import { I18nService } from 'nestjs-i18n';
import type { DataSource } from 'typeorm';
import { UsersService } from '../auth/users/users.service.js';
import { ApiError } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { createValidationPipe } from '../common/http/validation.js';
import { APP_CONFIG, isLanguage, type AppConfig, type Language } from '../config/config.js';
import { CreateEventDto } from '../events/dto/create-event.dto.js';
import { UpdateEventDto } from '../events/dto/update-event.dto.js';
import { EventsService } from '../events/events.service.js';
import { CreateOrganizerDto, UpdateOrganizerDto } from '../organizers/dto/organizer-fields.dto.js';
import { OrganizerWrites } from '../organizers/organizers.service.js';
import {
  CreateCategoryDto,
  CreateTagDto,
  UpdateCategoryDto,
  UpdateTagDto,
} from '../terms/dto/write-term.dto.js';
import { TermWrites } from '../terms/term-writes.js';
import { CreateVenueDto, UpdateVenueDto } from '../venues/dto/venue-fields.dto.js';
import { VenueWrites } from '../venues/venues.service.js';
import { basicAuthorization, HttpClient, SourceError } from './http-client.js';
import { digestOf, ImportMap, type MapKind } from './import-map.js';
import { Writes } from '../database/writes.js';
import { Progress } from './progress.js';
import {
  categoryInput,
  eventInput,
  filterSourceHtml,
  isRedacted,
  MalformedRecord,
  organizerInput,
  tagInput,
  translationIds,
  venueInput,
} from './record-mapping.js';
import { messages, type Reason } from './messages.js';
import { cliMessages, type Message, type Translate } from '../config/messages.js';
import { isRecurrenceProblem, type Recurrence } from '../common/recurrence/rules.js';
import { MAX_SERIES, SeriesCollector, seriesRecurrence } from './tec-series.js';
import {
  discover,
  mapLimit,
  trimSlashes,
  type Collection,
  type ListPage,
  type SourceRecord,
  type TecSource,
} from './tec-source.js';

/** The importers' lines in English, when no language is given (tests, other callers). */
const ENGLISH = cliMessages('en').t;

export interface ImportOptions {
  /** Login of the local user the records are written as (and attributed to). */
  author: string;
  /** Application password at the source: drafts, pending and private records come too. */
  user?: string;
  password?: string;
  /** Only records modified at or after this instant (UTC) are looked at. */
  since?: Date;
  dryRun?: boolean;
  /** Pages fetched at once. */
  concurrency?: number;
  progress?: Progress;
  /** Lines printed as they happen (dry-run's would-be changes). */
  print?: (line: string) => void;
  /** The operator's language for those lines (English unless given). */
  t?: Translate;
  http?: HttpClient;
  /** Store the source's HTML as sent (else it is filtered as for a writer without unfiltered_html). */
  trustHtml?: boolean;
}

export interface KindCounts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  notModified: number;
}

export interface ImportSummary {
  source: string;
  counts: Record<MapKind, KindCounts>;
  /** The source id, or for a series the key of its occurrences (`{language}:{url}`). */
  skipped: Array<{ kind: MapKind; sourceId: number | string; title: string; reason: Reason }>;
  /** Records imported otherwise than the source shows them, and why. */
  notes: Array<{ kind: MapKind; sourceId: number | string; title: string; note: Reason }>;
  requests: number;
  retries: number;
}

const KINDS: Array<{ kind: MapKind; collection: Collection }> = [
  { kind: 'category', collection: 'categories' },
  { kind: 'tag', collection: 'tags' },
  { kind: 'venue', collection: 'venues' },
  { kind: 'organizer', collection: 'organizers' },
  { kind: 'event', collection: 'events' },
];

/** The events list shows only upcoming events unless told otherwise (BEHAVIOR §5.2.3). */
const EVENT_WINDOW = { start_date: '1900-01-01', end_date: '2999-12-31' };
const PER_PAGE = 50;
/** Pages of one list in one language at most (500,000 records): beyond, the source is refused. */
const MAX_PAGES = 10_000;

/** The origin of an http(s) address, or null (discovery reports what is wrong with it). */
function originOf(address: string): string | null {
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
}

class Unresolved extends SourceError {}

const wallClockUtc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/**
 * `import:tec` (CONTRACT §2): reads a calendar through its REST interface and writes every record
 * through the same services, validation and permission checks as the API, as the named local
 * user, in the record's language. Each record and its import_map row are one transaction.
 */
@Injectable()
export class TecImporter {
  private readonly pipe = createValidationPipe();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly events: EventsService,
    private readonly venues: VenueWrites,
    private readonly organizers: OrganizerWrites,
    private readonly terms: TermWrites,
    private readonly i18n: I18nService,
    private readonly writes: Writes,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  /** The local user records are written as. */
  async actorFor(login: string) {
    const user = (await this.users.list()).find((u) => u.login === login);
    if (!user) throw new SourceError(messages.noLocalUser(login));
    if (user.role === 'subscriber') throw new SourceError(messages.subscriberAuthor(login));
    return { user: { id: user.id, login: user.login, role: user.role } };
  }

  contextFor(actor: RequestContext['actor'], language: Language): RequestContext {
    return {
      actor,
      language,
      restBase: `${this.config.siteUrl}${this.config.basePath}/cal/events/v1`,
      siteUrl: this.config.siteUrl,
      config: this.config,
      query: {},
    };
  }

  async run(address: string, options: ImportOptions): Promise<ImportSummary> {
    const actor = await this.actorFor(options.author);
    const credentials =
      options.user !== undefined && options.password !== undefined
        ? basicAuthorization(options.user, options.password)
        : undefined;
    const credentialOrigin = originOf(address);
    const http =
      options.http ??
      new HttpClient({
        authorization: credentials,
        credentialOrigin: credentialOrigin ?? undefined,
      });
    const source = await discover(address, http);
    // Credentials are for the site named: a discovery that leads elsewhere stops here.
    if (credentials && source.origin !== credentialOrigin) {
      throw new SourceError(messages.foreignRoot(source.root, credentialOrigin ?? address));
    }
    const map = new ImportMap(this.ds, this.writes, source.key);
    await map.load();
    const progress = options.progress ?? new Progress(process.stderr, false);
    const summary: ImportSummary = {
      source: trimSlashes(source.root),
      counts: Object.fromEntries(
        KINDS.map(({ kind }) => [
          kind,
          { created: 0, updated: 0, unchanged: 0, skipped: 0, notModified: 0 },
        ]),
      ) as Record<MapKind, KindCounts>,
      skipped: [],
      notes: [],
      requests: 0,
      retries: 0,
    };
    const run = { map, actor, options, summary, source, withCredentials: !!credentials };
    try {
      for (const { kind, collection } of KINDS) {
        progress.start(collection, 0);
        // A category whose parent has not come yet waits for the end of the list.
        const waiting: SourceRecord[] = [];
        const imported = new Set<number>();
        // Occurrences of a Pro site's recurring events come back as one series each (CONTRACT §9).
        const series = new SeriesCollector();
        await this.eachPage(source, collection, options, async (records) => {
          progress.more(records.length);
          for (const record of records) {
            const language =
              typeof record.language === 'string' ? record.language : this.config.defaultLanguage;
            const taken = kind === 'event' ? series.add(record, language) : 'other';
            if (taken === 'full') {
              summary.counts.event.skipped++;
              summary.skipped.push({
                kind,
                sourceId: record.id,
                title: titleOf(record),
                reason: messages.tooManySeries(MAX_SERIES),
              });
            }
            if (taken !== 'other') {
              progress.tick();
              continue;
            }
            const parent = kind === 'category' ? Number(record.parent ?? 0) : 0;
            if (parent && !imported.has(parent) && !map.get('category', parent)) {
              waiting.push(record);
              continue;
            }
            await this.importOne(kind, record, run);
            imported.add(record.id);
            progress.tick();
          }
        });
        for (const record of order(kind, waiting)) {
          await this.importOne(kind, record, run);
          progress.tick();
        }
        for (const one of series.all()) {
          const recurrence = seriesRecurrence(one);
          await this.importOne(kind, one.first, run, { key: one.key, recurrence });
        }
        progress.finish();
      }
    } catch (error) {
      if (error instanceof SourceError) throw new SourceError(messages.stopped(error));
      throw error;
    }
    summary.requests = http.requests;
    summary.retries = http.retries;
    this.metrics?.countImport('tec', summary.counts, http);
    return summary;
  }

  /**
   * Hands every record of a collection to `onPage`, one page at a time, in every language the
   * source lists separately, each record once. What the source claims is believed only as far as
   * pages really come: numbered paging (a `total_pages`) ends at an empty page or one shorter
   * than those before, link paging at an empty page or no `next_rest_url`; a next link already
   * read is a cycle, a page with nothing new means the source does not page, and a listing
   * longer than MAX_PAGES is refused. Only the ids seen are kept, never the pages.
   */
  private async eachPage(
    source: TecSource,
    collection: Collection,
    options: ImportOptions,
    onPage: (records: SourceRecord[]) => Promise<void>,
  ): Promise<void> {
    const languages = source.languages.length ? source.languages : [undefined];
    const handed = new Set<number>();
    for (const language of languages) {
      const params: Record<string, string | number> = {
        per_page: PER_PAGE,
        page: 1,
        ...(collection === 'events' ? EVENT_WINDOW : {}),
        // Term lists hide unused terms unless told otherwise (BEHAVIOR §5.5).
        ...(collection === 'categories' || collection === 'tags' ? { hide_empty: 0 } : {}),
        ...(language ? { i18n_language: language } : {}),
      };
      const listed = new Set<number>();
      const read = new Set<string>();
      let pages = 0;
      let pageSize = 0;
      /** Takes one page; answers whether paging goes on after it. */
      const take = async (url: string, page: ListPage): Promise<boolean> => {
        if (++pages > MAX_PAGES)
          throw new SourceError(messages.tooManyPages(collection, MAX_PAGES));
        if (!page.records.length) return false;
        const fresh = page.records.filter((r) => !listed.has(r.id));
        if (!fresh.length) throw new SourceError(messages.pagingRepeats(url, collection));
        for (const record of fresh) listed.add(record.id);
        const records = fresh.filter((r) => !handed.has(r.id));
        for (const record of records) {
          handed.add(record.id);
          // Remember the list's language for sources whose records do not carry one.
          if (language && record.language === undefined) record.language = language;
        }
        await onPage(records);
        const full = page.records.length >= pageSize;
        pageSize = Math.max(pageSize, page.records.length);
        return full;
      };
      const firstUrl = source.url(collection, params);
      read.add(digestOf(firstUrl));
      const first = await source.page(firstUrl, collection);
      if (!(await take(firstUrl, first))) continue;
      if (first.totalPages !== null) {
        // Numbered pages, `concurrency` at a time, as far as full pages come.
        const concurrency = options.concurrency ?? 4;
        let last = 1;
        while (last < first.totalPages) {
          const batch = Array.from(
            { length: Math.min(concurrency, first.totalPages - last) },
            (_, i) => last + 1 + i,
          );
          const urls = batch.map((page) => source.url(collection, { ...params, page }));
          const answers = await mapLimit(urls, concurrency, (url) => source.page(url, collection));
          let goOn = true;
          for (let i = 0; i < answers.length && goOn; i++) goOn = await take(urls[i], answers[i]);
          if (!goOn) break;
          last += batch.length;
        }
      } else {
        // No totals: follow next_rest_url, one page after the other.
        for (let next = first.next; next;) {
          const seen = digestOf(next);
          if (read.has(seen)) throw new SourceError(messages.pagingCycle(next, collection));
          read.add(seen);
          const page = await source.page(next, collection);
          // A short page with a next link still goes on: some sources filter within a page.
          if (!(await take(next, page)) && !page.records.length) break;
          next = page.next;
        }
      }
    }
  }

  /**
   * Imports one record; with `series`, the occurrences of one event as one series: keyed on
   * `series.key`, written from its first occurrence with `series.recurrence`.
   */
  private async importOne(
    kind: MapKind,
    listed: SourceRecord,
    run: {
      map: ImportMap;
      actor: RequestContext['actor'];
      options: ImportOptions;
      summary: ImportSummary;
      source: TecSource;
      withCredentials: boolean;
    },
    series?: { key: string; recurrence: ReturnType<typeof seriesRecurrence> },
  ): Promise<void> {
    let record = listed;
    const { map, options, summary } = run;
    const counts = summary.counts[kind];
    const title = titleOf(record);
    const mapKey = series?.key ?? record.id;
    const skip = (reason: Reason) => {
      counts.skipped++;
      summary.skipped.push({ kind, sourceId: mapKey, title, reason });
    };
    if (series && isRecurrenceProblem(series.recurrence)) {
      return skip(messages.seriesRefused(series.recurrence));
    }
    const recurrence = series?.recurrence as Recurrence | null | undefined;
    if (options.since && kind !== 'category' && kind !== 'tag') {
      const modified = typeof record.modified_utc === 'string' ? record.modified_utc : '';
      if (modified && modified < wallClockUtc(options.since)) {
        counts.notModified++;
        return;
      }
    }
    // A protected record shown without its content is never written as if it were the record.
    let makePrivate = false;
    if (isRedacted(kind, record)) {
      const opened = run.withCredentials
        ? await run.source.unlocked(collectionOf(kind), record.id)
        : null;
      if (!opened || isRedacted(kind, opened)) {
        return skip(messages.protectedSkipped(run.withCredentials));
      }
      record = { ...opened, language: opened.language ?? record.language };
      makePrivate = true;
      summary.notes.push({ kind, sourceId: mapKey, title, note: messages.protectedPrivate });
    }
    const language = record.language ?? this.config.defaultLanguage;
    if (!isLanguage(language)) {
      return skip(messages.languageNotOurs(language));
    }
    const existing = map.get(kind, mapKey);
    const ref = (refKind: MapKind, sourceId: number): number => {
      const row = map.get(refKind, sourceId);
      if (row) return row.localId;
      if (options.dryRun) return -sourceId;
      throw new Unresolved(messages.notImported(refKind, sourceId));
    };
    let input: Record<string, unknown>;
    try {
      input = inputFor(kind, record, ref);
      if (!options.trustHtml) input = filterSourceHtml(kind, input);
      if (makePrivate) input.status = 'private';
      if (recurrence) input.recurrence = recurrence;
    } catch (error) {
      if (error instanceof MalformedRecord || error instanceof Unresolved) return skip(error);
      throw error;
    }
    const digest = digestOf({ kind, language, input });
    try {
      const outcome = await map.apply(kind, mapKey, digest, {
        dryRun: options.dryRun,
        print: options.print,
        wouldDo: (row) =>
          (options.t ?? ENGLISH)(`cli.import.${row ? 'would_update' : 'would_create'}.${kind}`, {
            local: row?.localId ?? '',
            id: mapKey,
            title,
          }),
        write: (localId) => {
          // A series is one record of many source ids: its translations are not linked.
          const translationOf =
            existing || series
              ? undefined
              : translationIds(record)
                  .map((id) => map.get(kind, id)?.localId)
                  .find((id) => id !== undefined);
          const body = {
            ...input,
            ...(existing ? { language } : {}),
            ...(translationOf !== undefined ? { translation_of: translationOf } : {}),
          };
          return this.write(kind, localId, body, this.contextFor(run.actor, language));
        },
      });
      counts[outcome]++;
    } catch (error) {
      if (error instanceof ApiError) return skip(this.describe(error));
      throw error;
    }
  }

  /** Validates as the API's body pipe does, then calls the service; answers the local id. */
  /** Moves the event `id` to the trash as `ctx`'s actor; one gone or trashed already is left. */
  async trashEvent(id: number, ctx: RequestContext): Promise<void> {
    try {
      await this.events.remove(id, ctx);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 404 || error.status === 410)) return;
      throw error;
    }
  }

  writeRecord(
    kind: MapKind,
    localId: number | undefined,
    body: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<number | undefined> {
    return this.write(kind, localId, body, ctx);
  }

  private async write(
    kind: MapKind,
    localId: number | undefined,
    body: Record<string, unknown>,
    ctx: RequestContext,
  ): Promise<number | undefined> {
    const validate = async <T>(metatype: new () => T): Promise<T> =>
      (await this.pipe.transform(structuredClone(body), {
        type: 'body',
        metatype: metatype as never,
      })) as T;
    const idOf = (payload: unknown) => (payload as { id?: number }).id;
    switch (kind) {
      case 'category':
        return localId === undefined
          ? idOf(await this.terms.create('category', await validate(CreateCategoryDto), ctx))
          : idOf(
              await this.terms.update('category', localId, await validate(UpdateCategoryDto), ctx),
            );
      case 'tag':
        return localId === undefined
          ? idOf(await this.terms.create('tag', await validate(CreateTagDto), ctx))
          : idOf(await this.terms.update('tag', localId, await validate(UpdateTagDto), ctx));
      case 'venue':
        return localId === undefined
          ? idOf(await this.venues.create(await validate(CreateVenueDto), ctx))
          : idOf(await this.venues.updateById(localId, await validate(UpdateVenueDto), ctx));
      case 'organizer':
        return localId === undefined
          ? idOf(await this.organizers.create(await validate(CreateOrganizerDto), ctx))
          : idOf(
              await this.organizers.updateById(localId, await validate(UpdateOrganizerDto), ctx),
            );
      case 'event':
        return localId === undefined
          ? idOf(await this.events.create(await validate(CreateEventDto), ctx))
          : idOf(await this.events.update(localId, await validate(UpdateEventDto), ctx));
      default:
        return unknownKind(kind);
    }
  }

  /**
   * An API error as one line: its message and, for a 400, each parameter's reason, from the
   * `errors` and `validation` catalogues, in the language the CLI shows it in.
   */
  describe(error: ApiError): Message {
    const params = Object.entries(error.data.params ?? {}).map(([name, reason]) =>
      messages.param(name, reason),
    );
    return messages.apiRefusal(error.code, error.status, error.text, params);
  }
}

function inputFor(
  kind: MapKind,
  record: SourceRecord,
  ref: (kind: MapKind, id: number) => number,
): Record<string, unknown> {
  switch (kind) {
    case 'category':
      return categoryInput(record, ref);
    case 'tag':
      return tagInput(record);
    case 'venue':
      return venueInput(record);
    case 'organizer':
      return organizerInput(record);
    case 'event':
      return eventInput(record, ref);
    default:
      return unknownKind(kind);
  }
}

/** The compiler proves every kind handled; this names one that a cast let through. */
function unknownKind(kind: never): never {
  throw new Error(`unknown record kind ${JSON.stringify(kind)}`);
}

const collectionOf = (kind: MapKind): Collection => KINDS.find((k) => k.kind === kind)!.collection;

const titleOf = (record: SourceRecord): string => {
  for (const name of ['title', 'venue', 'organizer', 'name']) {
    if (typeof record[name] === 'string') return record[name].slice(0, 80);
  }
  return '';
};

/** Parents before children (categories); otherwise as listed. */
function order(kind: MapKind, records: SourceRecord[]): SourceRecord[] {
  if (kind !== 'category') return records;
  const byId = new Map(records.map((r) => [r.id, r]));
  const out: SourceRecord[] = [];
  const placed = new Set<number>();
  const place = (r: SourceRecord, depth: number) => {
    if (placed.has(r.id) || depth > 100) return;
    const parent = byId.get(Number(r.parent ?? 0));
    if (parent && parent !== r) place(parent, depth + 1);
    if (!placed.has(r.id)) {
      placed.add(r.id);
      out.push(r);
    }
  };
  records.forEach((r) => place(r, 0));
  return out;
}
