import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import type { RecordKind } from '../common/records/record-kinds.js';
import type { Writes } from '../database/writes.js';

/** The map keeps every kind of record an import writes. */
export type MapKind = RecordKind;

export interface MapRow {
  localId: number;
  digest: string;
}

/** A source id longer than the column (an iCalendar UID can be) is stored as its SHA-256. */
const key = (sourceId: string) =>
  sourceId.length <= 255 ? sourceId : createHash('sha256').update(sourceId).digest('hex');

export const digestOf = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/**
 * The `import_map` table (migration ImportMap1764500000000): per source and kind, the local id a
 * source record became and the digest of what was last written from it.
 */
export class ImportMap {
  private readonly rows = new Map<string, MapRow>();

  constructor(
    private readonly ds: DataSource,
    private readonly writes: Writes,
    readonly source: string,
  ) {}

  /** Reads every row of the source once (an import touches them all anyway). */
  async load(): Promise<void> {
    const rows: Array<{
      kind: string;
      source_id: string;
      local_id: number | string;
      digest: string;
    }> = await this.ds.query(
      'SELECT kind, source_id, local_id, digest FROM import_map WHERE source = ?',
      [this.source],
    );
    this.rows.clear();
    for (const r of rows) {
      this.rows.set(`${r.kind}:${r.source_id}`, { localId: Number(r.local_id), digest: r.digest });
    }
  }

  get(kind: MapKind, sourceId: string | number): MapRow | undefined {
    return this.rows.get(`${kind}:${key(String(sourceId))}`);
  }

  /** The rows of `kind` whose source id starts with `prefix` (ids kept whole, not hashed). */
  rowsUnder(kind: MapKind, prefix: string): Array<{ sourceId: string; localId: number }> {
    const head = `${kind}:${prefix}`;
    const out: Array<{ sourceId: string; localId: number }> = [];
    for (const [k, row] of this.rows) {
      if (k.startsWith(head))
        out.push({ sourceId: k.slice(kind.length + 1), localId: row.localId });
    }
    return out;
  }

  /** Inside the record's own transaction (Writes.alongNextWrite). */
  private async write(
    manager: EntityManager,
    kind: MapKind,
    sourceId: string | number,
    row: MapRow,
  ): Promise<void> {
    const id = key(String(sourceId));
    const params = [row.localId, row.digest, this.source, kind, id];
    const found: unknown[] = await manager.query(
      'SELECT local_id FROM import_map WHERE source = ? AND kind = ? AND source_id = ?',
      [this.source, kind, id],
    );
    await manager.query(
      found.length
        ? 'UPDATE import_map SET local_id = ?, digest = ? WHERE source = ? AND kind = ? AND source_id = ?'
        : 'INSERT INTO import_map (local_id, digest, source, kind, source_id) VALUES (?, ?, ?, ?, ?)',
      params,
    );
  }

  /**
   * Imports one source record whose content hashes to `digest`: nothing when the map holds that
   * digest already; with `dryRun`, the line `wouldDo` gives, printed; otherwise `write` (given
   * the local id the record already has, if any) and the map row in the same transaction
   * (Writes.alongNextWrite), so that a record and its row are committed together or not at all. The
   * row is what later records of this run see once committed. Answers what happened.
   */
  async apply(
    kind: MapKind,
    sourceId: string | number,
    digest: string,
    run: {
      dryRun?: boolean;
      print?: (line: string) => void;
      wouldDo: (existing: MapRow | undefined) => string;
      write: (localId: number | undefined) => Promise<number | undefined>;
    },
  ): Promise<'unchanged' | 'updated' | 'created'> {
    const existing = this.get(kind, sourceId);
    if (existing?.digest === digest) return 'unchanged';
    const outcome = existing ? 'updated' : 'created';
    if (run.dryRun) {
      run.print?.(run.wouldDo(existing));
      return outcome;
    }
    let row: MapRow | undefined;
    const localId = await this.writes.alongNextWrite(
      async (manager, result) => {
        const id = existing?.localId ?? (typeof result === 'number' ? result : NaN);
        if (!Number.isSafeInteger(id)) throw new Error('the write answered no id');
        row = { localId: id, digest };
        await this.write(manager, kind, sourceId, row);
      },
      () => run.write(existing?.localId),
    );
    if (localId === undefined) throw new Error('nothing was written');
    if (row) this.rows.set(`${kind}:${key(String(sourceId))}`, row);
    return outcome;
  }

  /** Forgets a row whose local record is gone (deleted for good here). */
  async forget(kind: MapKind, sourceId: string | number): Promise<void> {
    const id = key(String(sourceId));
    await this.ds.query('DELETE FROM import_map WHERE source = ? AND kind = ? AND source_id = ?', [
      this.source,
      kind,
      id,
    ]);
    this.rows.delete(`${kind}:${id}`);
  }
}
