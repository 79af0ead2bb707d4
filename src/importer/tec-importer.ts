import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { I18nService } from 'nestjs-i18n';
import type { DataSource } from 'typeorm';
import { UsersService } from '../auth/users/users.service.js';
import { ApiError, type Text } from '../common/errors/api-error.js';
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
  MalformedRecord,
  organizerInput,
  tagInput,
  translationIds,
  venueInput,
} from './record-mapping.js';
import {
  discover,
  mapLimit,
  trimSlashes,
  type Collection,
  type SourceRecord,
  type TecSource,
} from './tec-source.js';

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
  http?: HttpClient;
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
  skipped: Array<{ kind: MapKind; sourceId: number; title: string; reason: string }>;
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

class Unresolved extends Error {}

const wallClockUtc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/**
 * `import:tec` (issue 19): reads a calendar through its REST interface and writes every record
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
  ) {}

  /** The local user records are written as. */
  async actorFor(login: string) {
    const user = (await this.users.list()).find((u) => u.login === login);
    if (!user) throw new SourceError(`no local user with login "${login}" (--author)`);
    if (user.role === 'subscriber') {
      throw new SourceError(`"${login}" is a subscriber and may not create records (--author)`);
    }
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
    const http =
      options.http ??
      new HttpClient({
        authorization:
          options.user !== undefined && options.password !== undefined
            ? basicAuthorization(options.user, options.password)
            : undefined,
      });
    const source = await discover(address, http);
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
      requests: 0,
      retries: 0,
    };
    for (const { kind, collection } of KINDS) {
      const records = order(kind, await this.fetchAll(source, collection, options));
      progress.start(collection, records.length);
      for (const record of records) {
        await this.importOne(kind, record, { map, actor, options, summary });
        progress.tick();
      }
      progress.finish();
    }
    summary.requests = http.requests;
    summary.retries = http.retries;
    return summary;
  }

  /** Every record of a collection, in every language the source lists separately. */
  private async fetchAll(
    source: TecSource,
    collection: Collection,
    options: ImportOptions,
  ): Promise<SourceRecord[]> {
    const languages = source.languages.length ? source.languages : [undefined];
    const seen = new Map<number, SourceRecord>();
    for (const language of languages) {
      const params: Record<string, string | number> = {
        per_page: PER_PAGE,
        page: 1,
        ...(collection === 'events' ? EVENT_WINDOW : {}),
        // Term lists hide unused terms unless told otherwise (BEHAVIOR §5.5).
        ...(collection === 'categories' || collection === 'tags' ? { hide_empty: 0 } : {}),
        ...(language ? { i18n_language: language } : {}),
      };
      const first = await source.page(source.url(collection, params), collection);
      const pages = [first];
      if (first.totalPages !== null) {
        const rest = Array.from({ length: Math.max(0, first.totalPages - 1) }, (_, i) => i + 2);
        pages.push(
          ...(await mapLimit(rest, options.concurrency ?? 4, (page) =>
            source.page(source.url(collection, { ...params, page }), collection),
          )),
        );
      } else {
        // No totals: follow next_rest_url, one page after the other.
        let next = first.next;
        for (let guard = 0; next && guard < 100_000; guard++) {
          const page = await source.page(next, collection);
          pages.push(page);
          next = page.next;
        }
      }
      for (const page of pages) {
        for (const record of page.records) {
          if (record && typeof record === 'object' && Number.isSafeInteger(record.id)) {
            // Remember the list's language for sources whose records do not carry one.
            if (language && record.language === undefined) record.language = language;
            seen.set(record.id, record);
          }
        }
      }
    }
    return [...seen.values()];
  }

  private async importOne(
    kind: MapKind,
    record: SourceRecord,
    run: {
      map: ImportMap;
      actor: RequestContext['actor'];
      options: ImportOptions;
      summary: ImportSummary;
    },
  ): Promise<void> {
    const { map, options, summary } = run;
    const counts = summary.counts[kind];
    const title = titleOf(record);
    const skip = (reason: string) => {
      counts.skipped++;
      summary.skipped.push({ kind, sourceId: record.id, title, reason });
    };
    if (options.since && kind !== 'category' && kind !== 'tag') {
      const modified = typeof record.modified_utc === 'string' ? record.modified_utc : '';
      if (modified && modified < wallClockUtc(options.since)) {
        counts.notModified++;
        return;
      }
    }
    const language = record.language ?? this.config.defaultLanguage;
    if (!isLanguage(language)) {
      return skip(`its language "${String(language)}" is not one of this service's`);
    }
    const existing = map.get(kind, record.id);
    const ref = (refKind: MapKind, sourceId: number): number => {
      const row = map.get(refKind, sourceId);
      if (row) return row.localId;
      if (options.dryRun) return -sourceId;
      throw new Unresolved(`its ${refKind} ${sourceId} was not imported`);
    };
    let input: Record<string, unknown>;
    try {
      input = inputFor(kind, record, ref);
    } catch (error) {
      if (error instanceof MalformedRecord || error instanceof Unresolved) {
        return skip(error.message);
      }
      throw error;
    }
    const digest = digestOf({ kind, language, input });
    try {
      const outcome = await map.apply(kind, record.id, digest, {
        dryRun: options.dryRun,
        print: options.print,
        wouldDo: (row) =>
          `would ${row ? `update ${kind} ${row.localId}` : `create a ${kind}`} from ${record.id} "${title}"`,
        write: (localId) => {
          const translationOf = existing
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
    }
  }

  /** An API error as one English line: its message and, for a 400, each parameter's reason. */
  describe(error: ApiError): string {
    const tr = (text: Text) =>
      String(
        this.i18n.translate(text.key, { lang: 'en', args: text.args, defaultValue: text.key }),
      );
    const params = error.data.params
      ? Object.entries(error.data.params)
          .map(([name, reason]) => `${name}: ${tr(reason)}`)
          .join('; ')
      : '';
    return `${error.code} (${error.status}): ${tr(error.text)}${params ? ` ${params}` : ''}`;
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
  }
}

const titleOf = (record: SourceRecord): string => {
  for (const name of ['title', 'venue', 'organizer', 'name']) {
    if (typeof record[name] === 'string') return (record[name] as string).slice(0, 80);
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

export { SourceError };
