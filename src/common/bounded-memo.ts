/**
 * Values a process makes again and again from a few keys (parsed dates and tags, statement
 * texts, formatted days, translated messages), kept until `max` are held, then dropped all at
 * once and made anew: bounded whatever the keys, with no bookkeeping on a hit (an LRU's moves
 * cost more than these values do to remake). `undefined` is never kept; `null` is.
 */
export class BoundedMemo<T> {
  private readonly values = new Map<string, T>();

  constructor(private readonly max: number) {}

  /** The value kept for `key`, or what `make` answers, kept. */
  get(key: string, make: () => T): T {
    let found = this.values.get(key);
    if (found === undefined) {
      found = make();
      if (this.values.size >= this.max) this.values.clear();
      if (found !== undefined) this.values.set(key, found);
    }
    return found;
  }

  /** How many values are kept. */
  get size(): number {
    return this.values.size;
  }
}

/**
 * What `make` answers for an object, kept as long as the object lives (a WeakMap, so bounded by
 * what holds the objects): for what is made from shared objects nobody changes, such as the
 * RecordCache's payloads, which every reader of a record gets until a write replaces them.
 */
export function keptWith<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const kept = new WeakMap<K, V>();
  return (key) => {
    let value = kept.get(key);
    if (value === undefined) {
      value = make(key);
      kept.set(key, value);
    }
    return value;
  };
}
