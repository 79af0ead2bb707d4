import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { Metrics } from '../metrics/metrics.js';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ApiError } from '../common/errors/api-error.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { HttpClient, MAX_ANSWER_BYTES, SourceError } from './http-client.js';
import { EXPANSION_BOUNDS, readIcs, type ExpansionBounds, type IcsItem } from './ics-parse.js';
import { threadCpuMs } from '../common/cpu.js';
import { digestOf, ImportMap } from './import-map.js';
import { Writes, type RecordChange } from '../database/writes.js';
import { messages, type Reason } from './messages.js';
import { cliMessages, type Translate } from '../config/messages.js';
import { Progress } from './progress.js';
import { ImportWriter } from './import-writer.js';
import type { KindCounts } from './tec-importer.js';

/** The importers' lines in English, when no language is given (tests, other callers). */
const ENGLISH = cliMessages('en').t;

export interface IcsOptions {
  author: string;
  /**
   * Recurring events: a series whose occurrences all end before `from`, or that starts at or
   * after `to`, is left out.
   */
  from: Date;
  to: Date;
  dryRun?: boolean;
  progress?: Progress;
  print?: (line: string) => void;
  /** The operator's language for those lines (English unless given). */
  t?: Translate;
  http?: HttpClient;
  /** How far checking and writing the file's series may go (ics-parse.ts's defaults unless given). */
  bounds?: ExpansionBounds;
}

/** Counts `item` as skipped, with why. */
function skip(summary: IcsSummary, item: IcsItem, reason: Reason): void {
  summary.counts.skipped++;
  summary.skipped.push({ sourceId: item.id, title: item.title, reason });
}

/** Venues, organizers and terms the events brought: written along with an event, or reused. */
interface LinkedCounts {
  created: number;
  updated: number;
}

export interface IcsSummary {
  source: string;
  /** The events (VEVENTs, series and changed occurrences). */
  counts: KindCounts;
  /** What the events' LOCATION, ORGANIZER and CATEGORIES created or updated here. */
  linked: Record<'venue' | 'organizer' | 'category', LinkedCounts>;
  skipped: Array<{ sourceId: string; title: string; reason: Reason }>;
  /**
   * Events an earlier version imported one per occurrence of a series this run wrote as one,
   * moved to the trash.
   */
  merged: number;
}

/**
 * `import:ics` (CONTRACT §2): an iCalendar file or feed into events, through EventsService as the
 * API writes them. Each VEVENT is one event, a recurring one one series (CONTRACT §9), each
 * changed occurrence one event; keyed on its UID (and the changed occurrence's original start) in
 * import_map, so a re-run updates, never duplicates.
 */
@Injectable()
export class IcsImporter {
  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly writer: ImportWriter,
    private readonly writes: Writes,
    @Optional() private readonly metrics?: Metrics,
  ) {}

  async run(address: string, options: IcsOptions): Promise<IcsSummary> {
    const actor = await this.writer.actorFor(options.author);
    const http = options.http ?? new HttpClient();
    const { text, key } = await this.load(address, http);
    const { items, deadline } = readIcs(text, options, options.bounds, address);
    const map = new ImportMap(this.ds, this.writes, key);
    await map.load();
    const summary: IcsSummary = {
      source: key,
      counts: { created: 0, updated: 0, unchanged: 0, skipped: 0, notModified: 0 },
      linked: {
        venue: { created: 0, updated: 0 },
        organizer: { created: 0, updated: 0 },
        category: { created: 0, updated: 0 },
      },
      skipped: [],
      merged: 0,
    };
    const progress = options.progress ?? new Progress(process.stderr, false);
    progress.start('events', items.length);
    const ctx = this.writer.contextFor(actor, this.config.defaultLanguage);
    const linked = new LinkedCounter();
    const unsubscribe = this.writes.onCommit((changes) => linked.add(changes));
    try {
      for (const item of items) {
        // A series is expanded and stored again as it is written: within the file's time too.
        if (item.body?.recurrence && threadCpuMs() > deadline) {
          skip(summary, item, messages.icsCutFile((options.bounds ?? EXPANSION_BOUNDS).totalMs));
        } else await this.importOne(item, map, ctx, options, summary);
        progress.tick();
      }
      if (!options.dryRun) summary.merged = await this.mergeOccurrences(items, map, ctx);
    } finally {
      unsubscribe();
    }
    progress.finish();
    summary.linked = linked.counts();
    this.metrics?.countImport('ics', { event: summary.counts }, http);
    return summary;
  }

  private async load(address: string, http: HttpClient): Promise<{ text: string; key: string }> {
    if (/^(https?|webcal):\/\//i.test(address)) {
      const url = address.replace(/^webcal:/i, 'https:');
      const answer = await http.get(url, 'text/calendar, */*');
      if (answer.status !== 200) throw new SourceError(messages.httpStatus(url, answer.status));
      return { text: answer.text, key: `ics:${url}` };
    }
    const path = resolve(address);
    try {
      // No larger than an answer from the web, and read no further than that.
      const file = await open(path, 'r');
      try {
        const buffer = Buffer.alloc(MAX_ANSWER_BYTES + 1);
        let size = 0;
        for (;;) {
          const { bytesRead } = await file.read(buffer, size, buffer.length - size, null);
          if (!bytesRead) break;
          size += bytesRead;
          if (size > MAX_ANSWER_BYTES) {
            throw new SourceError(messages.fileTooLarge(path, MAX_ANSWER_BYTES));
          }
        }
        return { text: buffer.subarray(0, size).toString('utf8'), key: `ics:${path}` };
      } finally {
        await file.close();
      }
    } catch (error) {
      if (error instanceof SourceError) throw error;
      throw new SourceError(
        messages.cannotRead(path, (error as NodeJS.ErrnoException).code ?? String(error)),
      );
    }
  }

  /**
   * A series written here replaces the events an earlier version made of its occurrences, one
   * each (keyed `{UID}@{UTC start}`, as changed occurrences still are): those the source no longer
   * lists as a changed occurrence go to the trash and leave the map. Answers how many.
   */
  private async mergeOccurrences(
    items: readonly IcsItem[],
    map: ImportMap,
    ctx: ReturnType<ImportWriter['contextFor']>,
  ): Promise<number> {
    const listed = new Set(items.map((item) => item.id));
    let merged = 0;
    for (const item of items) {
      if (!item.body?.recurrence || !map.get('event', item.id)) continue;
      for (const { sourceId, localId } of map.rowsUnder('event', `${item.id}@`)) {
        if (listed.has(sourceId)) continue;
        await this.writer.retireEvent(map, sourceId, localId, ctx);
        merged++;
      }
    }
    return merged;
  }

  private async importOne(
    item: IcsItem,
    map: ImportMap,
    ctx: ReturnType<ImportWriter['contextFor']>,
    options: IcsOptions,
    summary: IcsSummary,
  ) {
    const counts = summary.counts;
    if (!item.body) return skip(summary, item, item.problem ?? messages.unreadable());
    const digest = digestOf({ kind: 'ics', body: item.body });
    try {
      const outcome = await map.apply('event', item.id, digest, {
        dryRun: options.dryRun,
        print: options.print,
        wouldDo: (row) =>
          (options.t ?? ENGLISH)(`cli.import.${row ? 'would_update' : 'would_create'}.event`, {
            local: row?.localId ?? '',
            id: item.id,
            title: item.title,
          }),
        write: (localId) => this.writer.write('event', localId, item.body!, ctx),
      });
      counts[outcome]++;
    } catch (error) {
      if (error instanceof ApiError) return skip(summary, item, this.writer.describe(error));
      throw error;
    }
  }
}

/** Distinct venues, organizers and categories created or updated while the events were written. */
class LinkedCounter {
  private readonly created = new Set<string>();
  private readonly updated = new Set<string>();

  add(changes: readonly RecordChange[]): void {
    for (const change of changes) {
      if (change.kind === 'event') continue;
      const id = `${change.kind}:${change.id}`;
      if (change.action === 'created') this.created.add(id);
      else if (change.action === 'updated' && !this.created.has(id)) this.updated.add(id);
    }
  }

  counts(): IcsSummary['linked'] {
    const count = (set: Set<string>, kind: string) =>
      [...set].filter((id) => id.startsWith(`${kind}:`)).length;
    return {
      venue: { created: count(this.created, 'venue'), updated: count(this.updated, 'venue') },
      organizer: {
        created: count(this.created, 'organizer'),
        updated: count(this.updated, 'organizer'),
      },
      category: {
        created: count(this.created, 'category'),
        updated: count(this.updated, 'category'),
      },
    };
  }
}
