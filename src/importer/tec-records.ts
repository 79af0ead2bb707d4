import { unknownKind } from './import-writer.js';
import type { MapKind } from './import-map.js';
import {
  categoryInput,
  eventInput,
  organizerInput,
  tagInput,
  venueInput,
} from './record-mapping.js';
import type { Collection, SourceRecord } from './tec-source.js';

/** The rules `import:tec` reads a source's records by: which, in what order, as what input. */

/** The collections, in the order they are imported (a record's references come before it). */
export const KINDS: Array<{ kind: MapKind; collection: Collection }> = [
  { kind: 'category', collection: 'categories' },
  { kind: 'tag', collection: 'tags' },
  { kind: 'venue', collection: 'venues' },
  { kind: 'organizer', collection: 'organizers' },
  { kind: 'event', collection: 'events' },
];

const wallClockUtc = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** With `--since`, a post (not a term) last modified before it is left as it is. */
export function notModifiedSince(
  kind: MapKind,
  record: SourceRecord,
  since: Date | undefined,
): boolean {
  if (!since || kind === 'category' || kind === 'tag') return false;
  const modified = typeof record.modified_utc === 'string' ? record.modified_utc : '';
  return !!modified && modified < wallClockUtc(since);
}

/** The write input of a source record of `kind`; `ref` resolves the ids of the records it names. */
export function inputFor(
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

export const collectionOf = (kind: MapKind): Collection =>
  KINDS.find((k) => k.kind === kind)!.collection;

export const titleOf = (record: SourceRecord): string => {
  for (const name of ['title', 'venue', 'organizer', 'name']) {
    if (typeof record[name] === 'string') return record[name].slice(0, 80);
  }
  return '';
};

/** Parents before children (categories); otherwise as listed. */
export function order(kind: MapKind, records: SourceRecord[]): SourceRecord[] {
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
