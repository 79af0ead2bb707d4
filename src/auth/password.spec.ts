import {
  generateApplicationPassword,
  hashPassword,
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
    expect(a).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(a).not.toBe(b);
    await expect(verifyPassword('secret', a)).resolves.toBe(true);
    await expect(verifyPassword('Secret', a)).resolves.toBe(false);
    await expect(verifyPassword('secret', 'bcrypt$whatever')).resolves.toBe(false);
  });

  it('generates 24-character application passwords in groups of four', () => {
    const pw = generateApplicationPassword();
    expect(pw).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    expect(normalizeApplicationPassword(pw)).toHaveLength(24);
  });
});
