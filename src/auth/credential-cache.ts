import { createHmac, randomBytes } from 'node:crypto';

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
  private readonly secret = randomBytes(32);
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs = 5 * 60_000,
    private readonly maxEntries = 10_000,
  ) {}

  key(login: string, password: string): string {
    return createHmac('sha256', this.secret)
      .update(login)
      .update('\0')
      .update(password)
      .digest('base64');
  }

  has(key: string, user: { id: number; passwordHash: string }, now = Date.now()): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (
      entry.expires < now ||
      entry.userId !== user.id ||
      entry.passwordHash !== user.passwordHash
    ) {
      this.entries.delete(key);
      return false;
    }
    return true;
  }

  remember(key: string, user: { id: number; passwordHash: string }, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      // Drop the oldest insertion (Map keeps insertion order).
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, {
      userId: user.id,
      passwordHash: user.passwordHash,
      expires: now + this.ttlMs,
    });
  }

  forgetUser(userId: number): void {
    for (const [key, entry] of this.entries) if (entry.userId === userId) this.entries.delete(key);
  }
}
