import { randomBytes, scryptSync } from 'node:crypto';
import { DataSource } from 'typeorm';
import { UsersRepository } from '../../src/auth/users/users.repository.js';
import { UsersService } from '../../src/auth/users/users.service.js';
import { basic, SESSION_PATH } from '../helpers/auth.js';
import { useTestApp } from '../helpers/app-fixture.js';

/**
 * A password hashed at another cost than today's (a calendar that ran an earlier release, whose
 * hashes cost N=2^15, r=8, p=1) still opens the API and the console, and its hash is replaced by
 * one at today's cost at that first successful check, as WordPress rehashes at a login; a wrong
 * password replaces nothing.
 */
describe('password hashes of another cost (e2e)', () => {
  const { app, http, users } = useTestApp();
  let ds: DataSource;
  /** The suite hashes at N=2^10 (test/setup-file.ts): N=2^11 stands for another cost. */
  const oldCost = (password: string) => {
    const salt = randomBytes(16);
    const key = scryptSync(password, salt, 32, { N: 2 ** 11, r: 8, p: 1 });
    return ['scrypt', 2 ** 11, 8, 1, salt.toString('base64'), key.toString('base64')].join('$');
  };
  const stored = async (login: string) =>
    (
      (await ds.query('SELECT password_hash, login_password_hash FROM users WHERE login = ?', [
        login,
      ])) as Array<{ password_hash: string; login_password_hash: string | null }>
    )[0];
  /** Any route answers 401 to a wrong credential, public reads included (CONTRACT §2). */
  const me = (header: string) => http().get('/cal/events/v1/events').set('Authorization', header);

  beforeAll(() => {
    ds = app().get(DataSource);
  });

  it('opens the API with an application password of the old cost and stores it at today’s', async () => {
    const { login } = users.author;
    const password = 'AnOldApplicationPassword';
    const before = oldCost(password);
    await ds.query('UPDATE users SET password_hash = ? WHERE login = ?', [before, login]);

    await me(basic(login, 'not the password')).expect(401);
    expect((await stored(login)).password_hash).toBe(before);

    await me(basic(login, password)).expect(200);
    const after = (await stored(login)).password_hash;
    expect(after).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(after).not.toBe(before);
    // The new hash verifies the same password, in this process (remembered) and in a fresh check.
    await me(basic(login, password)).expect(200);
    expect(await app().get(UsersService).authenticate(login, password)).toMatchObject({ login });
    expect((await stored(login)).password_hash).toBe(after);
  });

  it('logs in to the console with a console password of the old cost and stores it at today’s', async () => {
    const { login } = users.contributor;
    const password = 'an old console password';
    const before = oldCost(password);
    await ds.query('UPDATE users SET login_password_hash = ? WHERE login = ?', [before, login]);

    await http().post(SESSION_PATH).send({ login, password: 'not the password' }).expect(401);
    expect((await stored(login)).login_password_hash).toBe(before);

    await http().post(SESSION_PATH).send({ login, password }).expect(200);
    const after = (await stored(login)).login_password_hash;
    expect(after).toMatch(/^scrypt\$1024\$8\$1\$/);
    await http().post(SESSION_PATH).send({ login, password }).expect(200);
  });

  it('leaves a password set meanwhile as it is', async () => {
    const { login, id } = users.subscriber;
    const service = app().get(UsersService);
    const before = oldCost('the first password');
    await ds.query('UPDATE users SET password_hash = ? WHERE login = ?', [before, login]);
    // The password changes between the check's read of the row and its rehash.
    const newer = await service.setPassword(login, 'the second password');
    await expect(
      app()
        .get(UsersRepository)
        .rehashPassword(id, 'passwordHash', before, oldCost('the first password')),
    ).resolves.toBe(false);
    expect(await service.authenticate(login, newer)).toMatchObject({ login });
    expect(await service.authenticate(login, 'the first password')).toBeNull();
  });
});
