import { ExtensionRegistry } from '../extensions/registry.js';
import { writeFieldsOf } from '../extensions/seams.js';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { APP_CONFIG, isLanguage, type AppConfig, type Language } from '../config/config.js';
import { basicAuthorization, HttpClient, SourceError } from './http-client.js';
import { digestOf, ImportMap, type MapKind } from './import-map.js';
import { ImportWriter } from './import-writer.js';
import { Writes } from '../database/writes.js';
import { Progress } from './progress.js';
import { filterSourceHtml, isRedacted, MalformedRecord, translationIds } from './record-mapping.js';
import { collectionOf, inputFor, KINDS, notModifiedSince, order, titleOf } from './tec-records.js';
import { messages, type Reason } from './messages.js';
import { cliMessages, type Translate } from '../config/messages.js';
import { isRecurrenceProblem, type Recurrence } from '../common/recurrence/rules.js';
import { eachPage } from './tec-paging.js';
import { MAX_SERIES, SeriesCollector, seriesRecurrence } from './tec-series.js';
import {
  discover,
  trimSlashes,
  type Collection,
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
  /**
   * Events an earlier version imported one per occurrence (keyed on the provisional id) that a
   * series written now replaces: moved to the trash.
   */
  merged: number;
}

/** The origin of an http(s) address, or null (discovery reports what is wrong with it). */
function originOf(address: string): string | null {
  try {
    return new URL(address).origin;
  } catch {
    return null;
  }
}

class Unresolved extends SourceError {}

/**
 * `import:tec` (CONTRACT §2): reads a calendar through its REST interface and writes every record
 * through the same services, validation and permission checks as the API, as the named local
 * user, in the record's language. Each record and its import_map row are one transaction.
 */
@Injectable()
export class TecImporter {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: ImportWriter,
    private readonly writes: Writes,
    private readonly extensions: ExtensionRegistry,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  async run(address: string, options: ImportOptions): Promise<ImportSummary> {
    const actor = await this.writer.actorFor(options.author);
    const { http, source, withCredentials } = await openSource(address, options);
    const map = new ImportMap(this.ds, this.writes, source.key);
    await map.load();
    const progress = options.progress ?? new Progress(process.stderr, false);
    const summary = emptySummary(source);
    const run: ImportRun = { map, actor, options, summary, source, withCredentials };
    try {
      for (const { kind, collection } of KINDS) {
        progress.start(collection, 0);
        await this.importCollection(kind, collection, run, progress);
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
   * One collection, page by page; then the categories whose parent came later in the list, then
   * the series its events' occurrences make.
   */
  private async importCollection(
    kind: MapKind,
    collection: Collection,
    run: ImportRun,
    progress: Progress,
  ): Promise<void> {
    const { map, options, summary } = run;
    // A category whose parent has not come yet waits for the end of the list.
    const waiting: SourceRecord[] = [];
    const imported = new Set<number>();
    // Occurrences of a Pro site's recurring events come back as one series each (CONTRACT §9).
    const series = new SeriesCollector();
    await eachPage(run.source, collection, options, async (records) => {
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
      if (!options.dryRun && map.get(kind, one.key)) {
        summary.merged += await this.mergeOccurrences(one.ids, run);
      }
    }
  }

  /**
   * The events an earlier version of the importer made of a series' occurrences, one each under
   * its provisional id, go to the trash and leave the map once the series stands for them.
   * Answers how many.
   */
  private async mergeOccurrences(
    ids: readonly number[],
    run: { map: ImportMap; actor: RequestContext['actor'] },
  ): Promise<number> {
    const ctx = this.writer.contextFor(run.actor, this.config.defaultLanguage);
    let merged = 0;
    for (const id of ids) {
      const row = run.map.get('event', id);
      if (!row) continue;
      await this.writer.retireEvent(run.map, id, row.localId, ctx);
      merged++;
    }
    return merged;
  }

  /**
   * Imports one record; with `series`, the occurrences of one event as one series: keyed on
   * `series.key`, written from its first occurrence with `series.recurrence`.
   */
  private async importOne(
    kind: MapKind,
    listed: SourceRecord,
    run: ImportRun,
    series?: SeriesToImport,
  ): Promise<void> {
    const { summary } = run;
    const counts = summary.counts[kind];
    const title = titleOf(listed);
    const mapKey = series?.key ?? listed.id;
    const skip = (reason: Reason) => {
      counts.skipped++;
      summary.skipped.push({ kind, sourceId: mapKey, title, reason });
    };
    if (series && isRecurrenceProblem(series.recurrence)) {
      return skip(messages.seriesRefused(series.recurrence));
    }
    if (notModifiedSince(kind, listed, run.options.since)) {
      counts.notModified++;
      return;
    }
    // A protected record shown without its content is never written as if it were the record.
    const readable = await readableRecord(kind, listed, run);
    if (!readable) return skip(messages.protectedSkipped(run.withCredentials));
    const { record, opened } = readable;
    if (opened)
      summary.notes.push({ kind, sourceId: mapKey, title, note: messages.protectedPrivate });
    const language = record.language ?? this.config.defaultLanguage;
    if (!isLanguage(language)) {
      return skip(messages.languageNotOurs(language));
    }
    let input: Record<string, unknown>;
    try {
      const recurrence = series?.recurrence as Recurrence | null | undefined;
      input = this.writeInput(kind, record, run, { makePrivate: opened, recurrence });
    } catch (error) {
      if (error instanceof MalformedRecord || error instanceof Unresolved) return skip(error);
      throw error;
    }
    try {
      const one = { kind, record, input, language, mapKey, title, isSeries: !!series };
      counts[await this.applyOne(one, run)]++;
    } catch (error) {
      if (error instanceof ApiError) return skip(this.writer.describe(error));
      throw error;
    }
  }

  /**
   * The body written for a source record: its fields mapped, its HTML filtered unless trusted,
   * private where it was opened with a password, with the series' recurrence and the extension
   * modules' fields (a Pro site's Virtual Events) as its API shows them.
   */
  private writeInput(
    kind: MapKind,
    record: SourceRecord,
    run: ImportRun,
    extra: { makePrivate: boolean; recurrence: Recurrence | null | undefined },
  ): Record<string, unknown> {
    const { map, options } = run;
    const ref = (refKind: MapKind, sourceId: number): number => {
      const row = map.get(refKind, sourceId);
      if (row) return row.localId;
      if (options.dryRun) return -sourceId;
      throw new Unresolved(messages.notImported(refKind, sourceId));
    };
    let input = inputFor(kind, record, ref);
    if (!options.trustHtml) input = filterSourceHtml(kind, input);
    if (extra.makePrivate) input.status = 'private';
    if (extra.recurrence) input.recurrence = extra.recurrence;
    if (kind === 'event') Object.assign(input, writeFieldsOf(this.extensions, record));
    return input;
  }

  /** Writes (or, on a dry run, describes) one record through the map: created, updated or unchanged. */
  private async applyOne(
    one: {
      kind: MapKind;
      record: SourceRecord;
      input: Record<string, unknown>;
      language: Language;
      mapKey: number | string;
      title: string;
      isSeries: boolean;
    },
    run: ImportRun,
  ): Promise<keyof KindCounts> {
    const { kind, record, input, language, mapKey, title } = one;
    const { map, options } = run;
    const existing = map.get(kind, mapKey);
    const digest = digestOf({ kind, language, input });
    return map.apply(kind, mapKey, digest, {
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
          existing || one.isSeries
            ? undefined
            : translationIds(record)
                .map((id) => map.get(kind, id)?.localId)
                .find((id) => id !== undefined);
        const body = {
          ...input,
          ...(existing ? { language } : {}),
          ...(translationOf !== undefined ? { translation_of: translationOf } : {}),
        };
        return this.writer.write(kind, localId, body, this.writer.contextFor(run.actor, language));
      },
    });
  }
}

/** What one import run carries from record to record. */
interface ImportRun {
  map: ImportMap;
  actor: RequestContext['actor'];
  options: ImportOptions;
  summary: ImportSummary;
  source: TecSource;
  withCredentials: boolean;
}

/** The occurrences of one source event, imported as one series. */
interface SeriesToImport {
  key: string;
  recurrence: ReturnType<typeof seriesRecurrence>;
}

/**
 * The source at `address`, discovered with the options' credentials; those credentials are for
 * the site named, so a discovery that leads elsewhere stops here.
 */
async function openSource(
  address: string,
  options: ImportOptions,
): Promise<{ http: HttpClient; source: TecSource; withCredentials: boolean }> {
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
  if (credentials && source.origin !== credentialOrigin) {
    throw new SourceError(messages.foreignRoot(source.root, credentialOrigin ?? address));
  }
  return { http, source, withCredentials: !!credentials };
}

/** A summary with every kind's counts at zero. */
function emptySummary(source: TecSource): ImportSummary {
  return {
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
    merged: 0,
  };
}

/**
 * The record with its content: as listed, or (a protected record shown without it) as opened
 * with the run's password; null when it cannot be read.
 */
async function readableRecord(
  kind: MapKind,
  record: SourceRecord,
  run: ImportRun,
): Promise<{ record: SourceRecord; opened: boolean } | null> {
  if (!isRedacted(kind, record)) return { record, opened: false };
  const opened = run.withCredentials
    ? await run.source.unlocked(collectionOf(kind), record.id)
    : null;
  if (!opened || isRedacted(kind, opened)) return null;
  return { record: { ...opened, language: opened.language ?? record.language }, opened: true };
}
