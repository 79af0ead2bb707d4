import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager, type QueryRunner } from 'typeorm';
import { touching, writeTags, type ListedChange } from '../cache/dependencies.js';
import { transaction } from './transaction.js';
import { batchStatements } from './statement-batch.js';
import { WriteVersion } from '../cache/write-version.js';
import { isPostKind, type ChangeAction, type RecordKind } from '../common/records/record-kinds.js';

/** A post's status and publication date (UTC, `YYYY-MM-DD HH:MM:SS`), as committed. */
interface PublicationState {
  status: string;
  dateUtc: string | null;
  /** The translation group the write left the record in (records that can be translated). */
  translationGroup?: number | null;
}

/** One record a committed write changed. */
export interface RecordChange {
  kind: RecordKind;
  id: number;
  action: ChangeAction;
}

/**
 * What a write may add about a change it names: the post's status before the write (so that a
 * move into or out of public view can be told, e.g. a draft published) and the record's language
 * (needed for a record that no longer exists once the write commits).
 */
interface ChangeDetail {
  previousStatus?: string;
  language?: string;
  /** An event's: where it can move the events lists (without it: anywhere). */
  listed?: ListedChange;
}

/** A change as the write's own transaction sees it, just before the commit (Writes.journal). */
export interface JournalEntry extends RecordChange {
  /** The post's status as the work left it (`trash` once trashed; null for terms and deletes). */
  status: string | null;
  previousStatus: string | null;
  language: string | null;
  /** The post's publication date (UTC) as the work left it, when the write gave the record. */
  dateUtc: string | null;
}

/**
 * Called inside every write's transaction, after its work, with what it changed: what it writes
 * commits or rolls back with the write (the webhooks' outbox; events leaving a trashed venue).
 */
export type JournalHook = (
  manager: EntityManager,
  entries: readonly JournalEntry[],
) => Promise<void>;

/** Called once per committed write with every record it changed; never for a rolled-back one. */
export type ChangeListener = (changes: readonly RecordChange[]) => void | Promise<void>;

/**
 * What a unit of work gets: the transaction's manager and a way to say what it changed. A post
 * created or updated is best given with the record being written: its status and publication
 * date are read once the write has committed (so it may be named before the work changes them)
 * and tell whether it is now scheduled; without it, the scheduled publications are looked up.
 */
export interface WriteScope {
  manager: EntityManager;
  // Function-typed properties, not methods: the work destructures them, and they use no `this`.
  changed: (
    kind: RecordKind,
    id: number,
    action: ChangeAction,
    record?: Readonly<PublicationState>,
    detail?: ChangeDetail,
  ) => void;
}

/**
 * After a committed write that left a post scheduled: the earliest such publication date (UTC),
 * or null when a post was written without its state (it may be scheduled: look it up).
 */
export type ScheduleListener = (earliest: string | null) => void;

/** Work added to the next write of a call (`alongNextWrite`), given what that write answered. */
type Rider = (manager: EntityManager, result: unknown) => Promise<void>;

/** Errors after which the whole transaction is tried again: it lost a deadlock or a lock wait. */
const RETRYABLE = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT']);
const ATTEMPTS = 5;
/**
 * SQLite's every busy variant (SQLITE_BUSY, _SNAPSHOT, _RECOVERY, _TIMEOUT, SQLITE_LOCKED...):
 * another connection on the file (the webhook dispatcher's thread, the CLI) held it or committed
 * under a snapshot this transaction had read. Tried again, from the start, for as long as the
 * busy timeout (data-source.ts) would have waited.
 */
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;
const SQLITE_BUSY_MS = 5000;

/**
 * The one door for writes of the resource modules. A unit of work runs in one transaction:
 * MySQL/MariaDB run it in READ COMMITTED, so that each statement sees what concurrent writers
 * have committed (unique slugs, the duplicate-venue rule) and gap locks do not turn parallel
 * creates into deadlocks; on SQLite the process's transactions run one after another (its one
 * connection cannot hold two). A transaction chosen as a deadlock
 * victim is run again from the start. After the commit the write version moves, with what the
 * write may have altered (writeTags: the records it names and what its work touched; the read
 * caches drop what depends on them), and the listeners hear which records changed: they run
 * once the answer's data is durable, outside the transaction, so a slow or failing listener
 * (webhooks, search indexes, feeds) never delays, fails or rolls back the write.
 */
@Injectable()
export class Writes {
  private readonly listeners = new Set<ChangeListener>();
  private readonly scheduleListeners = new Set<ScheduleListener>();
  private readonly journals = new Set<JournalHook>();
  private readonly logger = new Logger('Writes');
  private readonly riders = new AsyncLocalStorage<{ work: Rider; done: boolean }>();
  /** MySQL/MariaDB connections of the pool already switched to READ COMMITTED for good. */
  private readonly readCommitted = new WeakSet<object>();

  constructor(
    @InjectDataSource() private readonly ds: DataSource,
    private readonly versions: WriteVersion,
  ) {}

  async run<T>(work: (scope: WriteScope) => Promise<T>): Promise<T> {
    // By kind and id: a record counts once, with the first action named (a purge names thousands).
    let changes = new Map<string, Named>();
    const changed = (
      kind: RecordKind,
      id: number,
      action: ChangeAction,
      record?: Readonly<PublicationState>,
      detail?: ChangeDetail,
    ) => {
      const key = `${kind}:${id}`;
      const named = changes.get(key);
      if (!named) changes.set(key, { change: { kind, id, action }, record, detail });
      else namedAgain(named, record, detail);
    };
    // What the work touches beyond the records it names; a retried attempt's too (a superset).
    const touched = new Set<string>();
    const result = await this.transaction(touched, async (manager) => {
      // A retried attempt starts over: only the changes of the attempt that committed count.
      changes = new Map();
      const answer = await work({ manager, changed });
      if (changes.size && this.journals.size) {
        const entries = [...changes.values()].map(journalEntry);
        for (const journal of this.journals) await journal(manager, entries);
      }
      return answer;
    });
    const named = [...changes.values()].map(({ change }) => change);
    const tagged = [...changes.values()].map(({ change, record, detail }) => ({
      ...change,
      listed: detail?.listed,
      group: record ? record.translationGroup : undefined,
    }));
    this.versions.bump('write', writeTags(tagged, touched, statusMoved(changes.values())));
    if (changes.size) {
      this.publish(named);
      // With each change's status before and after (the extension surface's lifecycle).
      const entries = [...changes.values()].map(journalEntry);
      for (const listener of this.detailedListeners)
        void Promise.resolve(listener(entries)).catch(() => undefined);
      const earliest = earliestScheduled([...changes.values()]);
      if (earliest !== undefined) for (const listener of this.scheduleListeners) listener(earliest);
    }
    return result;
  }

  /**
   * Runs `fn` (which calls a service that writes) so that the first write it starts also runs
   * `work`, in the same transaction, after the service's own work, with what that work answered
   * (the new record's id for a create). The importer stores its source→local map row this way:
   * a record and its row are committed together or not at all.
   */
  alongNextWrite<T>(work: Rider, fn: () => Promise<T>): Promise<T> {
    return this.riders.run({ work, done: false }, fn);
  }

  /**
   * Calls `listener` after each committed write that left a post scheduled (status `future`)
   * with the earliest such publication date (UTC, `YYYY-MM-DD HH:MM:SS`), or that wrote a post
   * without saying its state (null); returns the unsubscribe function.
   */
  onScheduled(listener: ScheduleListener): () => void {
    this.scheduleListeners.add(listener);
    return () => this.scheduleListeners.delete(listener);
  }

  /**
   * Adds `hook` to every write's transaction, after the work: what it writes commits with the
   * changes it is given, or not at all. Returns the unsubscribe function.
   */
  journal(hook: JournalHook): () => void {
    this.journals.add(hook);
    return () => this.journals.delete(hook);
  }

  private readonly detailedListeners = new Set<(entries: readonly JournalEntry[]) => unknown>();

  /** Like onCommit, with each change as the journal gives it (status before and after). */
  onCommitDetailed(listener: (entries: readonly JournalEntry[]) => unknown): () => void {
    this.detailedListeners.add(listener);
    return () => this.detailedListeners.delete(listener);
  }

  /** Subscribes to committed changes; returns the unsubscribe function. */
  onCommit(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async transaction<T>(
    touched: Set<string>,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const mysql = this.ds.options.type === 'mysql' || this.ds.options.type === 'mariadb';
    const rider = this.riders.getStore();
    const withRider =
      rider && !rider.done
        ? async (manager: EntityManager) => {
            const result = await work(manager);
            await rider.work(manager, result);
            return result;
          }
        : work;
    const busyUntil = Date.now() + SQLITE_BUSY_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await touching(touched, () =>
          mysql
            ? this.onReadCommittedConnection((runner) => runner.manager.transaction(withRider))
            : transaction(this.ds, withRider),
        );
        if (rider) rider.done = true;
        return result;
      } catch (error) {
        const code =
          (error as { driverError?: { code?: string } }).driverError?.code ??
          (error as { code?: string }).code;
        const busy = !mysql && !!code && SQLITE_BUSY.test(code) && Date.now() < busyUntil;
        if (!busy && (attempt >= ATTEMPTS || !code || !RETRYABLE.has(code))) throw error;
        const pause = 5 + Math.random() * 20 * Math.min(attempt, ATTEMPTS);
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  }

  /**
   * Runs `work` on a pool connection whose session isolation is READ COMMITTED: set once per
   * connection, instead of a `SET TRANSACTION` round trip before every transaction. Its
   * statements go in batches where they can (statement-batch.ts).
   */
  private async onReadCommittedConnection<T>(work: (runner: QueryRunner) => Promise<T>) {
    const runner = this.ds.createQueryRunner('master');
    try {
      const connection = (await runner.connect()) as object;
      if (!this.readCommitted.has(connection)) {
        await runner.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED');
        this.readCommitted.add(connection);
      }
      batchStatements(runner);
      return await work(runner);
    } finally {
      await runner.release();
    }
  }

  private publish(changes: readonly RecordChange[]): void {
    const frozen = Object.freeze(changes.map((c) => Object.freeze({ ...c })));
    for (const listener of this.listeners) {
      const fail = (error: unknown) =>
        this.logger.error(`a change listener failed: ${(error as Error)?.message ?? error}`);
      try {
        const pending = listener(frozen);
        if (pending) pending.catch(fail);
      } catch (error) {
        fail(error);
      }
    }
  }
}

interface Named {
  change: RecordChange;
  record?: Readonly<PublicationState>;
  detail?: ChangeDetail;
}

/** How far a change moves the events lists, least first. */
const MOVED = ['none', 'text', 'all'] as const;

/**
 * A record the write names again (an event split off a series, then updated; a record created,
 * then given its terms): it keeps its first action and the state before the write, but what is
 * announced and cached follows the record as the whole write left it (the last one given, read
 * at the commit), and the lists it may move are those of both namings.
 */
function namedAgain(
  named: Named,
  record: Readonly<PublicationState> | undefined,
  detail: ChangeDetail | undefined,
): void {
  if (record) named.record = record;
  if (!named.detail?.listed) return;
  const later = detail?.listed;
  named.detail = {
    ...named.detail,
    listed: later
      ? {
          dates: [...named.detail.listed.dates, ...later.dates],
          moved:
            MOVED[Math.max(MOVED.indexOf(named.detail.listed.moved), MOVED.indexOf(later.moved))],
        }
      : undefined,
  };
}

/** Whether an event's status as readers saw it differs from the one the write left. */
function statusMoved(changes: Iterable<Named>): boolean {
  for (const { change, record, detail } of changes) {
    if (change.kind !== 'event' || detail?.previousStatus === undefined) continue;
    const now = change.action === 'trashed' ? 'trash' : record?.status;
    if (detail.previousStatus !== now) return true;
  }
  return false;
}

function journalEntry({ change, record, detail }: Named): JournalEntry {
  const own = record as { language?: unknown } | undefined;
  let status: string | null = null;
  if (change.action === 'trashed') status = 'trash';
  else if (change.action !== 'deleted' && record) status = record.status;
  return {
    ...change,
    status,
    previousStatus: detail?.previousStatus ?? null,
    language: detail?.language ?? (typeof own?.language === 'string' ? own.language : null),
    dateUtc: status !== null && status !== 'trash' ? (record?.dateUtc ?? null) : null,
  };
}

/** What a write's changes tell the scheduled publications (see ScheduleListener). */
function earliestScheduled(changes: ReadonlyArray<Named>): string | null | undefined {
  let earliest: string | undefined;
  for (const { change, record } of changes) {
    if (!isPostKind(change.kind) || change.action === 'trashed' || change.action === 'deleted')
      continue;
    if (!record) return null;
    if (record.status === 'future' && record.dateUtc && !(earliest && earliest <= record.dateUtc))
      earliest = record.dateUtc;
  }
  return earliest;
}
