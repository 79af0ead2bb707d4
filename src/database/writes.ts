import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type EntityManager } from 'typeorm';
import { writeTransaction } from './transaction.js';

/** The records a write can change, by the names the API gives their kinds. */
export type RecordKind = 'event' | 'venue' | 'organizer' | 'category' | 'tag';
export type ChangeAction = 'created' | 'updated' | 'trashed' | 'deleted';

/** One record a committed write changed. */
export interface RecordChange {
  kind: RecordKind;
  id: number;
  action: ChangeAction;
}

/** Called once per committed write with every record it changed; never for a rolled-back one. */
export type ChangeListener = (changes: readonly RecordChange[]) => void | Promise<void>;

/** What a unit of work gets: the transaction's manager and a way to say what it changed. */
export interface WriteScope {
  manager: EntityManager;
  changed(kind: RecordKind, id: number, action: ChangeAction): void;
}

/**
 * The one door for writes of the resource modules: runs the work in a write transaction
 * (writeTransaction: retried on deadlocks, the write version bumped on commit) and, after the
 * commit, tells the listeners which records changed. Listeners (webhooks, search indexes, feeds)
 * run after the answer's data is durable, outside the transaction: a slow or failing listener
 * never delays, fails or rolls back the write.
 */
@Injectable()
export class Writes {
  private readonly listeners = new Set<ChangeListener>();
  private readonly logger = new Logger('Writes');

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  async run<T>(work: (scope: WriteScope) => Promise<T>): Promise<T> {
    let changes: RecordChange[] = [];
    const result = await writeTransaction(this.ds, (manager) => {
      // A retried attempt starts over: only the changes of the attempt that committed count.
      changes = [];
      return work({
        manager,
        changed: (kind, id, action) => {
          if (!changes.some((c) => c.kind === kind && c.id === id)) {
            changes.push({ kind, id, action });
          }
        },
      });
    });
    if (changes.length) this.publish(changes);
    return result;
  }

  /** Subscribes to committed changes; returns the unsubscribe function. */
  onCommit(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
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
