import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DataSource } from 'typeorm';
import { basic, SESSION_PATH, sessionCookie } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { resetDatabase } from '../helpers/database.js';
import { cli, migrate as migrateInProcess } from '../helpers/programs.js';
import {
  assertBuilt,
  CLI,
  MIGRATE,
  run,
  sharedDatabaseUrl,
  useSharedDatabase,
} from '../helpers/spawn.js';
import { migrationLabel } from '../../src/database/migration-label.js';
import { applicationMigrations } from '../../src/extension-modules.js';

/** The newest migration, the extension modules' included, as the CLI names it. */
const LAST = applicationMigrations()
  .map((m) => migrationLabel(m.name))
  .sort()
  .at(-1);

/**
 * The CLI: help and exit codes of the program as people run it (compiled by the test global
 * setup); user:password, records:purge-trash and the migration commands run in this process
 * (test/helpers/programs.ts), on the database the app under test shares.
 */
const BASE = '/cal/events/v1';
const lastLine = (text: string) => text.trim().split('\n').pop()!;

describe('the CLI', () => {
  beforeAll(assertBuilt);

  describe('help and mistakes, before any database is opened', () => {
    // A database that cannot be opened proves that none of these touches it.
    const env = { DATABASE_URL: 'mysql://nobody@127.0.0.1:1/never' };

    it.each([['--help'], ['-h'], ['help'], ['help', 'records:purge-trash']])(
      '%s exits 0 with the usage on standard output',
      async (...args) => {
        const result = await run(CLI, args, env);
        expect(result.code).toBe(0);
        expect(result.stderr).toBe('');
        expect(result.stdout).toMatch(/^Usage: npm run cli -- /);
      },
    );

    it('has help for every command', async () => {
      for (const command of [
        'user:create',
        'user:list',
        'user:password',
        'user:console-password',
        'user:delete',
        'records:purge-trash',
      ]) {
        const result = await run(CLI, [command, '--help'], env);
        expect(result.code).toBe(0);
        expect(result.stdout).toContain(`Usage: npm run cli -- ${command}`);
        expect(result.stdout).toContain('--help');
      }
    });

    it.each([
      [
        ['user:create', 'eve', '--role', 'editor', '--emial', 'e@example.org'],
        'no option "--emial"',
      ],
      [['user:create', 'eve', '--role'], '--role needs a value'],
      [['user:list', '--json=true'], '--json takes no value'],
      [['user:delete'], 'needs <login>'],
      [['records:purge-trash', '--older-than', 'a month'], '--older-than takes an age'],
      [[], 'no command given'],
    ])('%j is a usage error (exit 2): %s', async (args, message) => {
      const result = await run(CLI, args, env);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n')[0]).toContain(message);
      expect(result.stderr).toContain('Usage: npm run cli --');
    });

    it('speaks the language of the locale: LC_ALL, then LC_MESSAGES, then LANG', async () => {
      const hu = await run(CLI, ['--help'], { ...env, LANG: 'hu_HU.UTF-8' });
      expect(hu.code).toBe(0);
      expect(hu.stdout).toMatch(/^Használat: npm run cli -- <parancs>/);
      expect(hu.stdout).toContain('Parancsok:');

      const ro = await run(CLI, ['user:delete'], {
        ...env,
        LANG: 'hu_HU.UTF-8',
        LC_ALL: 'ro_RO.UTF-8',
      });
      expect(ro.code).toBe(2);
      expect(ro.stderr.split('\n')[0]).toBe('user:delete are nevoie de <login>');
      expect(ro.stderr).toContain('Utilizare: npm run cli -- user:delete <login>');

      const c = await run(CLI, ['--help'], { ...env, LC_ALL: 'C', LANG: 'hu_HU.UTF-8' });
      expect(c.stdout).toMatch(/^Usage: npm run cli -- <command>/);
    });
  });

  describe('users', () => {
    let app: NestExpressApplication | undefined;
    const db = useSharedDatabase();
    afterAll(() => closeApp(app));

    it('refuses a bad e-mail and a short chosen password, and creates nobody', async () => {
      const email = await cli(['user:create', 'eve', '--role', 'editor', '--email', 'eve'], {
        DATABASE_URL: db.url,
      });
      expect(email).toMatchObject({ code: 1, stdout: '' });
      expect(email.stderr.trim()).toBe('invalid e-mail address "eve"');
      const short = await cli(
        ['user:create', 'eve', '--role', 'editor', '--password', 'eleven char'],
        { DATABASE_URL: db.url },
      );
      expect(short.code).toBe(1);
      expect(short.stderr).toContain('--password must be at least 12 characters long');
      // In the operator's language, Romanian numbers agreeing with their noun.
      const ro = await cli(
        ['user:create', 'eve', '--role', 'editor', '--password', 'eleven char'],
        { DATABASE_URL: db.url, LC_ALL: 'ro_RO.UTF-8', LANG: 'hu_HU.UTF-8' },
      );
      expect(ro.stderr.trim()).toBe(
        '--password trebuie să aibă cel puțin 12 caractere (fără spații), are 10; omite-o pentru una generată',
      );
      const hu = await cli(['user:create', 'eve', '--role', 'boss'], {
        DATABASE_URL: db.url,
        LANG: 'hu_HU.UTF-8',
      });
      expect(hu).toMatchObject({ code: 1, stdout: '' });
      expect(hu.stderr.trim()).toBe(
        'ismeretlen szerepkör: „boss”; a szerepkörök: administrator, editor, author, contributor, subscriber',
      );
      const list = await cli(['user:list', '--json'], { DATABASE_URL: db.url });
      expect(JSON.parse(list.stdout)).toEqual([]);
    });

    it('lists users under a header and issues a new application password', async () => {
      const created = await cli(
        ['user:create', 'frank', '--role', 'editor', '--email', 'frank@example.org'],
        { DATABASE_URL: db.url },
      );
      expect(created.code).toBe(0);
      const first = lastLine(created.stdout);

      const table = await cli(['user:list'], { DATABASE_URL: db.url });
      const lines = table.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^ID +LOGIN +ROLE +EMAIL +DISPLAY NAME$/);
      expect(lines[1]).toMatch(/^\d+ +frank +editor +frank@example\.org +frank$/);
      const hu = await cli(['user:list'], { DATABASE_URL: db.url, LANG: 'hu_HU.UTF-8' });
      expect(hu.stdout.split('\n')[0]).toMatch(
        /^AZONOSÍTÓ +FELHASZNÁLÓNÉV +SZEREPKÖR +E-MAIL +MEGJELENÍTETT NÉV$/,
      );

      app = await createTestApp({ env: { DATABASE_URL: db.url }, keepDatabase: true });
      const get = (password: string) =>
        request(app!.getHttpServer()).get(BASE).set('Authorization', basic('frank', password));
      await get(first).expect(200); // now remembered by the server's credential cache

      const renewed = await cli(['user:password', 'frank'], { DATABASE_URL: db.url });
      expect(renewed.code).toBe(0);
      const second = lastLine(renewed.stdout);
      expect(second).toMatch(/^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
      expect(second).not.toBe(first);
      await get(first).expect(401);
      await get(second).expect(200);

      const chosen = await cli(
        ['user:password', 'frank', '--password', 'a chosen long passphrase'],
        { DATABASE_URL: db.url },
      );
      expect(lastLine(chosen.stdout)).toBe('a chosen long passphrase');
      await get('a chosen long passphrase').expect(200);

      const nobody = await cli(['user:password', 'nobody'], { DATABASE_URL: db.url });
      expect(nobody).toMatchObject({ code: 1, stdout: '' });
      expect(nobody.stderr.trim()).toBe('no user with login "nobody"');
    });

    it('gives a console password: it opens the login form, not HTTP Basic; the application password stays', async () => {
      const login = (password: string) =>
        request(app!.getHttpServer()).post(SESSION_PATH).send({ login: 'frank', password });
      // frank has an application password (the test before) and no console password yet.
      await login('a chosen long passphrase').expect(401);

      const given = await cli(['user:console-password', 'frank'], { DATABASE_URL: db.url });
      expect(given.code).toBe(0);
      const password = lastLine(given.stdout);
      expect(password).toMatch(/^[A-Za-z0-9]{20}$/);
      const session = await login(password).expect(200);
      expect(session.body.user).toEqual({ id: expect.any(Number), login: 'frank', role: 'editor' });
      await login('a chosen long passphrase').expect(401);
      const get = (authorization: string) =>
        request(app!.getHttpServer()).get(BASE).set('Authorization', authorization);
      await get(basic('frank', password)).expect(401);
      await get(basic('frank', 'a chosen long passphrase')).expect(200);

      // A new console password ends the sessions of the old one.
      const cookie = sessionCookie(session.headers['set-cookie']);
      const whoami = () => request(app!.getHttpServer()).get(SESSION_PATH).set('Cookie', cookie);
      await whoami().expect(200);
      const chosen = await cli(
        ['user:console-password', 'frank', '--password', 'another long passphrase'],
        { DATABASE_URL: db.url },
      );
      expect(lastLine(chosen.stdout)).toBe('another long passphrase');
      await whoami().expect(401);
      await login('another long passphrase').expect(200);

      const short = await cli(['user:console-password', 'frank', '--password', 'short'], {
        DATABASE_URL: db.url,
      });
      expect(short).toMatchObject({ code: 1, stdout: '' });
      const nobody = await cli(['user:console-password', 'nobody'], { DATABASE_URL: db.url });
      expect(nobody).toMatchObject({ code: 1, stdout: '' });
      expect(nobody.stderr.trim()).toBe('no user with login "nobody"');
    });
  });

  describe('records:purge-trash', () => {
    let app: NestExpressApplication | undefined;
    let url: string;
    let auth: string;
    const http = () => request(app!.getHttpServer());
    const count = async (sql: string, params: unknown[]) => {
      const [row] = (await app!.get(DataSource).query(sql, params)) as Array<{
        n: number | string;
      }>;
      return Number(row.n);
    };

    beforeAll(async () => {
      url = sharedDatabaseUrl();
      await resetDatabase(url);
      const created = await cli(['user:create', 'grace', '--role', 'administrator'], {
        DATABASE_URL: url,
      });
      auth = basic('grace', lastLine(created.stdout));
      app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    });
    afterAll(() => closeApp(app));

    const create = async (path: string, body: object) =>
      (await http().post(`${BASE}/${path}`).set('Authorization', auth).send(body).expect(201))
        .body as { id: number; venue?: { id: number }; organizer?: Array<{ id: number }> };
    const trash = (path: string, id: number) =>
      http().delete(`${BASE}/${path}/${id}`).set('Authorization', auth).expect(200);

    it('deletes trashed records for good with their links, keeping what is not trashed', async () => {
      const event = {
        start_date: '2030-05-01 20:00:00',
        end_date: '2030-05-01 23:00:00',
        categories: ['Jazz'],
        tags: ['outdoor'],
        venue: { venue: 'Blue hall' },
        organizer: [{ organizer: 'Ada' }],
      };
      const old = await create('events', { ...event, title: 'Trashed long ago' });
      const recent = await create('events', { ...event, title: 'Trashed today' });
      const kept = await create('events', { ...event, title: 'Kept' });
      const venue = await create('venues', { venue: 'Closed hall' });
      const organizer = await create('organizers', { organizer: 'Gone' });
      await trash('events', old.id);
      await trash('events', recent.id);
      await trash('venues', venue.id);
      await trash('organizers', organizer.id);
      // Forty days ago, as far as the trash is concerned.
      await app!
        .get(DataSource)
        .query('UPDATE events SET modified_utc = ? WHERE id = ?', ['2000-01-01 00:00:00', old.id]);

      const older = await cli(['records:purge-trash', '--older-than', '30d'], {
        DATABASE_URL: url,
      });
      expect(older.stderr).toBe('');
      expect(older.code).toBe(0);
      expect(older.stdout.trim()).toBe(
        'Deleted for good (trashed more than 30d ago): events 1, venues 0, organizers 0.',
      );
      await expect
        .poll(
          async () =>
            (await http().get(`${BASE}/events/${old.id}`).set('Authorization', auth)).status,
          { timeout: 5_000, interval: 20 },
        )
        .toBe(404);
      // Still in the trash: WordPress's answer for a trashed event, not a 404.
      await http().get(`${BASE}/events/${recent.id}`).set('Authorization', auth).expect(403);
      for (const [sql, id] of [
        ['SELECT COUNT(*) AS n FROM event_terms WHERE event_id = ?', old.id],
        ['SELECT COUNT(*) AS n FROM event_organizers WHERE event_id = ?', old.id],
        ['SELECT COUNT(*) AS n FROM post_ids WHERE id = ?', old.id],
      ] as const) {
        expect(await count(sql, [id])).toBe(0);
      }
      expect(
        await count('SELECT COUNT(*) AS n FROM event_terms WHERE event_id = ?', [kept.id]),
      ).toBe(2);

      const all = await cli(['records:purge-trash'], { DATABASE_URL: url });
      expect(all.stdout.trim()).toBe('Deleted for good: events 1, venues 1, organizers 1.');
      for (const [path, id] of [
        ['events', recent.id],
        ['venues', venue.id],
        ['organizers', organizer.id],
      ] as const) {
        // Answered as an id that never existed. The CLI is another process as far as the app is
        // concerned: on MySQL/MariaDB the app sees its writes within GENERATION_CHECK_MS (README,
        // "Scaling out"), and it had just read this record, so the answer is polled for.
        const never = await http().get(`${BASE}/${path}/999999`).set('Authorization', auth);
        expect(never.status).not.toBe(200);
        await expect
          .poll(
            async () => {
              const gone = await http().get(`${BASE}/${path}/${id}`).set('Authorization', auth);
              return [gone.status, gone.body.code];
            },
            { timeout: 5_000, interval: 20 },
          )
          .toEqual([never.status, never.body.code]);
      }
      // What was not trashed is whole: the event, its venue, organizer and terms.
      const left = await http()
        .get(`${BASE}/events/${kept.id}`)
        .set('Authorization', auth)
        .expect(200);
      expect(left.body).toMatchObject({
        title: 'Kept',
        venue: { venue: 'Blue hall' },
        organizer: [{ organizer: 'Ada' }],
        categories: [{ name: 'Jazz' }],
        tags: [{ name: 'outdoor' }],
      });

      const empty = await cli(['records:purge-trash'], { DATABASE_URL: url });
      expect(empty.stdout.trim()).toBe('Nothing to delete: the trash is empty.');
      const hu = await cli(['records:purge-trash'], { DATABASE_URL: url, LANG: 'hu_HU.UTF-8' });
      expect(hu.stdout.trim()).toBe('Nincs mit törölni: a lomtár üres.');
      const ro = await cli(['records:purge-trash', '--older-than', '2w'], {
        DATABASE_URL: url,
        LC_ALL: 'ro_RO.UTF-8',
      });
      expect(ro.stdout.trim()).toBe('Nimic de șters: nimic nu se află la gunoi de mai mult de 2w.');
    });
  });

  describe('migrations', () => {
    const db = useSharedDatabase();
    const migrate = (action: string) => migrateInProcess(action, { DATABASE_URL: db.url });

    it('name what they did, and the check starts with its verdict and the fix', async () => {
      const applied = await migrate('run');
      expect(applied.code).toBe(0);
      const names = applied.stdout.trim().split('\n');
      expect(names[0]).toBe('applied 1763800000000-initial-schema');
      expect(names.at(-1)).toBe(`applied ${LAST}`);
      expect((await migrate('run')).stdout.trim()).toBe(
        'nothing to apply: every migration has run',
      );
      const ok = await migrate('check');
      expect(ok.code).toBe(0);
      expect(ok.stdout.trim()).toBe(
        'OK: every migration has run and the schema matches the entities',
      );

      const reverted = await migrate('revert');
      expect(reverted.stdout.trim()).toBe(`reverted ${LAST}`);
      const pending = await migrate('check');
      expect(pending.code).toBe(1);
      expect(pending.stdout.split('\n')[0]).toBe(
        'NOT UP TO DATE: 1 migration pending; run `npm run migration:run`',
      );
      expect(pending.stdout).toContain(`pending ${LAST}`);

      for (let i = 1; i < names.length; i++) expect((await migrate('revert')).code).toBe(0);
      expect((await migrate('revert')).stdout.trim()).toBe(
        'nothing to revert: no migration has run on this database',
      );
    });

    it('have help, and refuse an unknown action (as a process)', async () => {
      const spawned = (action: string) => run(MIGRATE, [action], { DATABASE_URL: db.url });
      const help = await spawned('--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('migration:check');
      const wrong = await spawned('rollback');
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('unknown action "rollback"');
    });

    it('speak the language of the locale', async () => {
      const hu = { DATABASE_URL: db.url, LANG: 'hu_HU.UTF-8' };
      const ro = { DATABASE_URL: db.url, LC_ALL: 'ro_RO.UTF-8', LANG: 'hu_HU.UTF-8' };
      const applied = await migrateInProcess('run', hu);
      expect(applied.stdout.split('\n')[0]).toBe('lefuttatva: 1763800000000-initial-schema');
      expect((await migrateInProcess('run', ro)).stdout.trim()).toBe(
        'nimic de aplicat: toate migrările au rulat',
      );
      expect((await migrateInProcess('check', hu)).stdout.trim()).toBe(
        'OK: minden migráció lefutott, és a séma megfelel az entitásoknak',
      );
      expect((await migrateInProcess('revert', ro)).stdout.trim()).toBe(`anulată: ${LAST}`);
      const pending = await migrateInProcess('check', ro);
      expect(pending.code).toBe(1);
      expect(pending.stdout.split('\n')).toEqual([
        'NEACTUALIZAT: 1 migrare în așteptare; rulează `npm run migration:run`',
        `  în așteptare: ${LAST}`,
        '',
      ]);
      expect((await migrateInProcess('check', hu)).stdout.split('\n')[0]).toBe(
        'NEM NAPRAKÉSZ: 1 migráció függőben; futtasd: `npm run migration:run`',
      );
      const wrong = await migrateInProcess('rollback', hu);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('ismeretlen művelet: „rollback”');
      expect(wrong.stderr).toContain('visszavonja a legutóbb lefuttatott migrációt');
      expect((await migrateInProcess('--help', ro)).stdout).toContain(
        'Utilizare: npm run migration:run',
      );
      // A configuration error, in the same language.
      const bad = await migrateInProcess('run', { ...ro, DATABASE_URL: 'postgres://h/x' });
      expect(bad.code).toBe(1);
      expect(bad.stderr.trim()).toBe(
        'Configurație nevalidă (DATABASE_URL): are o schemă nesuportată, „postgres:” (folosește mysql://, mariadb:// sau sqlite:)',
      );
    });
  });
});
