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
