import { CredentialCache } from './credential-cache.js';

describe('CredentialCache', () => {
  const user = { id: 1, passwordHash: 'scrypt$a' };

  it('remembers a verified credential until it expires', () => {
    const cache = new CredentialCache(1000);
    const key = cache.key('alice', 'pw');
    expect(cache.has(key, user, 0)).toBe(false);
    cache.remember(key, user, 0);
    expect(cache.has(key, user, 999)).toBe(true);
    expect(cache.has(key, user, 1001)).toBe(false);
  });

  it('does not hold the password and separates logins', () => {
    const cache = new CredentialCache();
    // A password long enough that a random base64 key cannot contain it by chance.
    const secret = 'correct-horse-battery-staple';
    const key = cache.key('alice', secret);
    expect(key).not.toContain(secret);
    expect(key).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(cache.key('alic', `e${secret}`)).not.toBe(key);
  });

  it('forgets an entry when the stored hash changes or the user is dropped', () => {
    const cache = new CredentialCache();
    const key = cache.key('alice', 'pw');
    cache.remember(key, user);
    expect(cache.has(key, { ...user, passwordHash: 'scrypt$b' })).toBe(false);
    cache.remember(key, user);
    cache.forgetUser(1);
    expect(cache.has(key, user)).toBe(false);
  });

  it('stays bounded', () => {
    const cache = new CredentialCache(60_000, 2);
    const keys = ['a', 'b', 'c'].map((l) => cache.key(l, 'pw'));
    keys.forEach((k) => cache.remember(k, user));
    expect(cache.has(keys[0], user)).toBe(false);
    expect(cache.has(keys[2], user)).toBe(true);
  });
});
