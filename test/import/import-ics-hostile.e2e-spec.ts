import { join } from 'node:path';
import { cli } from '../helpers/programs.js';
import { databaseWithImporter, importedEvents, IMPORTER } from '../helpers/importer.js';

/**
 * `import:ics` with files made to hurt (test/fixtures/ics-hostile): a ten-line `FREQ=SECONDLY`
 * from 1900, rules that can never match, series over the bounds of recurring events (CONTRACT
 * §9), and markup in every text property. Each ends in bounded time with what it could do and a
 * line saying what it could not.
 */
const FIXTURES = join(__dirname, '..', 'fixtures/ics-hostile');

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
    url = await databaseWithImporter();
  }, 120_000);

  it('refuses a SECONDLY rule from 1900 at once, naming the part it cannot keep', async () => {
    const started = process.cpuUsage();
    const result = await importFile('secondly-1900.ics');
    // CPU time of this process, where the command runs: its start, and no expansion at all.
    const used = process.cpuUsage(started);
    expect((used.user + used.system) / 1000).toBeLessThan(30_000);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Total: 0 created, 0 updated, 0 unchanged, 1 skipped.');
    expect(result.stdout).toContain(
      'every-second@probe "Every second since 1900": not imported, since its recurrence cannot be kept as a series: recurrence rule FREQ=SECONDLY is not supported; use DAILY, WEEKLY, MONTHLY or YEARLY.',
    );
  }, 120_000);

  it('refuses series over a bound, each with its reason, and imports the one after them', async () => {
    const result = await importFile('series-bounds.ics');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Total: 1 created, 0 updated, 0 unchanged, 4 skipped.');
    expect(result.stdout).toMatch(
      /february-30@probe "The 30th of February": not imported, since its recurrence cannot be kept as a series: recurrence takes more than 20000 steps to expand/,
    );
    expect(result.stdout).toMatch(
      /daily-since-1900@probe "Every day since 1900": not imported, .*more than 1000 occurrences/,
    );
    expect(result.stdout).toMatch(
      /five-thousand@probe "Five thousand days": not imported, .*more than 1000 occurrences/,
    );
    // Old starts count every occurrence since (issue 44), however dense the rule.
    expect(result.stdout).toMatch(
      /dense-since-1000@probe "Nearly every day since 1000": not imported, .*more than 1000 occurrences/,
    );
    const weekly = await importedEvents(
      url,
      'per_page=50&start_date=2027-01-01&end_date=2027-03-31',
    );
    // 5 January to 1 March, weekly: eight Tuesdays, one series.
    expect(weekly.map((e) => e.title)).toEqual(Array(8).fill('A weekly one after them'));
    expect(new Set(weekly.map((e) => JSON.stringify(e.recurrence))).size).toBe(1);
    const again = await importFile('series-bounds.ics');
    expect(again.stdout).toContain('Total: 0 created, 0 updated, 1 unchanged, 4 skipped.');
  }, 120_000);

  it('says what it could not in the language of the locale', async () => {
    const hu = await importFile('never-matching.ics', { LANG: 'hu_HU.UTF-8' });
    expect(hu.code).toBe(0);
    expect(hu.stdout).toContain(
      'never@probe „February the 31st”: nem lett importálva, mert az ismétlődése nem őrizhető meg sorozatként:',
    );
    expect(hu.stdout).toMatch(/daily-by-seconds@probe „Daily, stepped by the second”: nem lett/);
    const ro = await importFile('never-matching.ics', { LC_ALL: 'ro_RO.UTF-8' });
    expect(ro.code).toBe(0);
    expect(ro.stdout).toContain(
      'never@probe „February the 31st”: nu a fost importat, deoarece recurența nu poate fi păstrată ca serie:',
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
    const events = await importedEvents(
      url,
      'per_page=50&start_date=2027-03-01&end_date=2027-03-03',
    );
    const event = events.find((e) => String(e.title).includes('Bold'))!;
    expect(event.title).toBe('&lt;b&gt;Bold&lt;/b&gt; title');
    expect(event.description).not.toContain('<script');
    expect((event.venue as Json).venue).toBe('&lt;img src=x onerror=alert(1)&gt;Hall');
    expect((event.organizer as Json[])[0].organizer).toBe('&lt;svg onload=alert(2)&gt;Org');
    // Again: the events are unchanged and nothing linked was written.
    const again = await importFile('markup.ics');
    expect(again.stdout).toMatch(/^ {2}event: +0 created, 0 updated, 2 unchanged, 0 skipped$/m);
    expect(again.stdout).toMatch(/^ {2}venue: +0 created, 0 updated$/m);
  }, 120_000);
});
