import { randomBytes, scryptSync } from 'node:crypto';
import {
  generateApplicationPassword,
  hashPassword,
  needsRehash,
  normalizeApplicationPassword,
  useCheapHashingForTests,
  verifyPassword,
} from './password.js';

describe('password hashing', () => {
  it('stores salted scrypt hashes that verify only the right password', async () => {
    // The cost the program uses (the suite's setup lowers it), put back whatever happens: the
    // worker's next test files share this module.
    useCheapHashingForTests(false);
    let a: string, b: string;
    try {
      a = await hashPassword('secret');
      b = await hashPassword('secret');
    } finally {
      useCheapHashingForTests();
    }
    expect(a).toMatch(/^scrypt\$16384\$8\$5\$/);
    expect(a).not.toBe(b);
    await expect(verifyPassword('secret', a)).resolves.toBe(true);
    await expect(verifyPassword('Secret', a)).resolves.toBe(false);
    await expect(verifyPassword('secret', 'bcrypt$whatever')).resolves.toBe(false);
    // A hash of the cost before (N=2^15, p=1) still verifies, and is to be made again.
    const salt = randomBytes(16);
    const key = scryptSync('secret', salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 2 ** 20 });
    const before = ['scrypt', 2 ** 15, 8, 1, salt.toString('base64'), key.toString('base64')];
    await expect(verifyPassword('secret', before.join('$'))).resolves.toBe(true);
    useCheapHashingForTests(false);
    try {
      expect(needsRehash(a)).toBe(false);
      expect(needsRehash(before.join('$'))).toBe(true);
    } finally {
      useCheapHashingForTests();
    }
    expect(needsRehash(a)).toBe(true);
  });

  it('generates 24-character application passwords in groups of four', () => {
    const pw = generateApplicationPassword();
    expect(pw).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(normalizeApplicationPassword(pw)).toHaveLength(24);
  });
});
