import { createHmac, createSecretKey, randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { lruBounds } from '../common/lru-bounds.js';
import { cacheCounters, type CacheCounters } from '../metrics/cache-stats.js';

interface Entry {
  userId: number;
  passwordHash: string;
  expires: number;
}

/**
 * Remembers successful password verifications for a short time, so that HTTP Basic requests do
 * not each pay for scrypt. Keys are an HMAC (with a per-process secret) of login and password, so
 * the cache never holds a password. An entry only counts while the user still exists with the
 * same stored hash: deleting the user or changing the password invalidates it at once.
 */
export class CredentialCache {
  /** A key object, made once: createHmac given the key as bytes prepares it on every call. */
  private readonly secret = createSecretKey(randomBytes(32));
  /** At most maxEntries verifications; the least recently used go first. */
  private readonly entries: LRUCache<string, Entry>;
  private readonly stats: CacheCounters = cacheCounters('credentials', this);

  constructor(
    private readonly ttlMs = 5 * 60_000,
    maxEntries = 10_000,
  ) {
    const stats = this.stats;
    this.entries = new LRUCache({
      ...lruBounds<string, Entry>(maxEntries),
      dispose: (_value, _key, reason) => {
        if (reason === 'evict') stats.evictions++;
      },
    });
  }

  key(login: string, password: string): string {
    return createHmac('sha256', this.secret)
      .update(login)
      .update('\0')
      .update(password)
      .digest('base64');
  }

  has(key: string, user: { id: number; passwordHash: string }, now = Date.now()): boolean {
    const entry = this.entries.get(key);
    if (!entry) {
      this.stats.misses++;
      return false;
    }
    if (
      entry.expires < now ||
      entry.userId !== user.id ||
      entry.passwordHash !== user.passwordHash
    ) {
      this.entries.delete(key);
      this.stats.misses++;
      return false;
    }
    this.stats.hits++;
    return true;
  }

  remember(key: string, user: { id: number; passwordHash: string }, now = Date.now()): void {
    this.entries.set(key, {
      userId: user.id,
      passwordHash: user.passwordHash,
      expires: now + this.ttlMs,
    });
  }

  get size(): number {
    return this.entries.size;
  }

  forgetUser(userId: number): void {
    for (const [key, entry] of this.entries.entries())
      if (entry.userId === userId) this.entries.delete(key);
  }
}
