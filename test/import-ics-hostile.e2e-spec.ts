import { join } from 'node:path';
import request from 'supertest';
import { basic } from './helpers/auth.js';
import { closeApp, createTestApp } from './helpers/create-test-app.js';
import { resetDatabase } from './helpers/database.js';
import { sharedDatabaseUrl } from './helpers/spawn.js';
import { cli } from './helpers/programs.js';

/**
 * `import:ics` with files made to hurt (test/fixtures/ics-hostile): a ten-line
 * `FREQ=SECONDLY` from 1900 that stepped towards the window for ever, a rule that can never match
 * (it looped inside the library), a series that is cut short, and markup in every text property.
 * Each ends in bounded time with what it could do and a line saying what it could not.
 */
const IMPORTER = { login: 'importer', password: 'importer long password' };
const FIXTURES = join(__dirname, 'fixtures/ics-hostile');

type Json = Record<string, unknown>;

describe('import:ics of hostile files', () => {
  let url: string;
  const importFile = (name: string, locale: Record<string, string> = {}) =>
    cli(
      [
        'import:ics',
        join(FIXTURES, name),
        '--author',
        IMPORTER.login,
        '--from',
        '2027-01-01',
        '--to',
        '2028-01-01',
      ],
      { DATABASE_URL: url, ...locale },
    );

  beforeAll(async () => {
    url = sharedDatabaseUrl();
    await resetDatabase(url);
    const created = await cli(
      ['user:create', IMPORTER.login, '--role', 'editor', '--password', IMPORTER.password],
      { DATABASE_URL: url },
    );
    if (created.code !== 0) throw new Error(created.stderr);
  }, 120_000);

  it('ends a SECONDLY rule from 1900 at its bound and says so', async () => {
    const started = process.cpuUsage();
    const result = await importFile('secondly-1900.ics');
    // The bound is 2 s of expansion for a series; the rest is the command's start (CPU time of
    // this process, where the command runs: not how long a loaded machine made it wait).
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(30_000);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Total: 0 created, 0 updated, 0 unchanged, 1 skipped.');
    expect(result.stdout).toMatch(
      /every-second@probe "Every second since 1900": not expanded: its recurrence rule took more than (200000 steps|2 s) \(it had reached 19\d\d-/,
    );
  }, 120_000);

  it('ends a rule that never matches, cuts a long series with a warning, and goes on', async () => {
    const result = await importFile('never-matching.ics');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /never@probe "February the 31st": not expanded: its recurrence rule took more than/,
    );
    // The daily series (stepped second by second) is imported as far as the bound let it go, and the
    // summary says where it stopped.
    expect(result.stdout).toMatch(
      /Warnings:\n {2}daily-by-seconds@probe "Daily, stepped by the second": series cut short, its recurrence rule took more than .*; occurrences after 2027-\d\d-\d\d \d\d:\d\d:\d\d \(UTC\) were not imported/,
    );
    const created = Number(/Total: (\d+) created/.exec(result.stdout)?.[1]);
    // The plain event after them, and the first of the daily ones.
    expect(created).toBeGreaterThan(1);
    expect(created).toBeLessThan(366);
  }, 120_000);

  it('says what it could not in the language of the locale', async () => {
    const hu = await importFile('never-matching.ics', { LANG: 'hu_HU.UTF-8' });
    expect(hu.code).toBe(0);
    expect(hu.stdout).toMatch(
      /never@probe „February the 31st”: nincs kibontva: az ismétlődési szabálya több mint/,
    );
    expect(hu.stdout).toMatch(
      /Figyelmeztetések:\n {2}daily-by-seconds@probe „Daily, stepped by the second”: a sorozat megszakadt, mert az ismétlődési szabálya .*; 2027-\d\d-\d\d \d\d:\d\d:\d\d \(UTC szerint\) után kezdődő előfordulásai nem lettek importálva/,
    );
    const ro = await importFile('never-matching.ics', { LC_ALL: 'ro_RO.UTF-8' });
    expect(ro.code).toBe(0);
    expect(ro.stdout).toMatch(
      /never@probe „February the 31st”: neextinsă: regula de recurență a (depășit|durat)/,
    );
    expect(ro.stdout).toMatch(
      /Avertismente:\n {2}daily-by-seconds@probe „Daily, stepped by the second”: serie întreruptă, regula de recurență .*; aparițiile de după 2027-\d\d-\d\d \d\d:\d\d:\d\d \(în UTC\) nu au fost importate/,
    );
    const missing = await cli(
      ['import:ics', join(FIXTURES, 'none.ics'), '--author', IMPORTER.login],
      {
        DATABASE_URL: url,
        LANG: 'hu_HU.UTF-8',
      },
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim()).toBe(`nem olvasható: ${join(FIXTURES, 'none.ics')}: ENOENT`);
  }, 120_000);

  it('stores every text property as text, and reports what each kind became', async () => {
    const result = await importFile('markup.ics');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^ {2}event: +2 created, 0 updated, 0 unchanged, 0 skipped$/m);
    expect(result.stdout).toMatch(/^ {2}venue: +1 created, 0 updated$/m);
    expect(result.stdout).toMatch(/^ {2}organizer: +1 created, 0 updated$/m);
    expect(result.stdout).toMatch(/^ {2}category: +1 created, 0 updated$/m);
    const app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    try {
      const events = (
        await request(app.getHttpServer())
          .get('/cal/events/v1/events?per_page=50&start_date=2027-03-01&end_date=2027-03-03')
          .set('Authorization', basic(IMPORTER.login, IMPORTER.password))
          .expect(200)
      ).body.events as Json[];
      const event = events.find((e) => String(e.title).includes('Bold'))!;
      expect(event.title).toBe('&lt;b&gt;Bold&lt;/b&gt; title');
      expect(event.description).not.toContain('<script');
      expect((event.venue as Json).venue).toBe('&lt;img src=x onerror=alert(1)&gt;Hall');
      expect((event.organizer as Json[])[0].organizer).toBe('&lt;svg onload=alert(2)&gt;Org');
    } finally {
      await closeApp(app);
    }
    // Again: the events are unchanged and nothing linked was written.
    const again = await importFile('markup.ics');
    expect(again.stdout).toMatch(/^ {2}event: +0 created, 0 updated, 2 unchanged, 0 skipped$/m);
    expect(again.stdout).toMatch(/^ {2}venue: +0 created, 0 updated$/m);
  }, 120_000);
});
