import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { isAbsolute, join } from 'node:path';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { basic } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { cli } from '../helpers/programs.js';
import { databaseWithImporter, IMPORTER } from '../helpers/importer.js';

/**
 * `import:ics` with files shaped as Google Calendar, Outlook and Apple Calendar write
 * them (test/fixtures/ics): VTIMEZONE and bare IANA TZIDs, a Windows zone name, UTC and floating
 * times, all-day events, RRULE with COUNT/UNTIL, EXDATE and a moved occurrence, LOCATION, GEO,
 * ORGANIZER, CATEGORIES, URL, CLASS:PRIVATE, STATUS:CANCELLED; idempotent on UID.
 */
const BASE = '/cal/events/v1';
const FIXTURES = join(__dirname, '..', 'fixtures/ics');
const WINDOW = ['--from', '2027-01-01', '--to', '2028-01-01'];

type Json = Record<string, unknown>;

describe('import:ics', () => {
  let url: string;
  let app: NestExpressApplication | undefined;
  const auth = basic(IMPORTER.login, IMPORTER.password);
  const importFile = (name: string, extra: string[] = WINDOW) =>
    cli(
      [
        'import:ics',
        isAbsolute(name) ? name : join(FIXTURES, name),
        '--author',
        IMPORTER.login,
        ...extra,
      ],
      {
        DATABASE_URL: url,
      },
    );
  let events: Json[] = [];
  const byTitle = (title: string) => events.filter((e) => e.title === title);

  beforeAll(async () => {
    url = await databaseWithImporter();
  });
  afterAll(() => closeApp(app));

  it('imports the three files, reporting the cancelled event', async () => {
    for (const [file, total] of [
      // A recurring VEVENT is one series (CONTRACT §9); a changed occurrence one event more.
      ['google.ics', 'Total: 3 created, 0 updated, 0 unchanged, 1 skipped.'],
      ['outlook.ics', 'Total: 3 created, 0 updated, 0 unchanged, 0 skipped.'],
      ['apple.ics', 'Total: 3 created, 0 updated, 0 unchanged, 0 skipped.'],
    ]) {
      const result = await importFile(file);
      expect(result.stderr).not.toMatch(/error/i);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(total);
    }
    app = await createTestApp({ env: { DATABASE_URL: url }, keepDatabase: true });
    events = (
      await request(app.getHttpServer())
        .get(`${BASE}/events?per_page=50&start_date=1900-01-01&end_date=2999-12-31`)
        .set('Authorization', auth)
        .expect(200)
    ).body.events as Json[];
  }, 180_000);

  it('Google: a weekly RRULE across a DST change, its venue and organizer, all-day, UTC, cancelled', () => {
    const choir = byTitle('Choir rehearsal');
    expect(choir.map((e) => [e.start_date, e.utc_start_date, e.timezone])).toEqual([
      ['2027-03-18 19:00:00', '2027-03-18 18:00:00', 'Europe/Budapest'],
      ['2027-03-25 19:00:00', '2027-03-25 18:00:00', 'Europe/Budapest'],
      ['2027-04-01 19:00:00', '2027-04-01 17:00:00', 'Europe/Budapest'],
      ['2027-04-08 19:00:00', '2027-04-08 17:00:00', 'Europe/Budapest'],
    ]);
    expect(choir[0]).toMatchObject({
      status: 'publish',
      venue: { venue: 'Music Hall, Liszt Ferenc tér 8, Budapest' },
      organizer: [{ organizer: 'Choir Club', email: 'choir@example.org' }],
    });
    // Plain text stays text: its markup is escaped, not interpreted.
    expect(choir[0].description).toContain('sheet music &amp; a smile.');
    expect(choir[0].description).toContain('&lt;b&gt;not HTML&lt;/b&gt;');
    // One series: its four occurrences, one venue and one organizer.
    expect(new Set(choir.map((e) => (e.venue as Json).id)).size).toBe(1);
    expect(new Set(choir.map((e) => (e.organizer as Json[])[0].id)).size).toBe(1);
    expect(choir.map((e) => e.recurrence)).toEqual(
      Array(4).fill(
        expect.objectContaining({
          rules: ['FREQ=WEEKLY;COUNT=4;BYDAY=TH'],
          exdates: [],
          rdates: [],
        }),
      ),
    );
    expect(choir.every((e) => (e.id as number) > 10_000_000)).toBe(true);
    expect(byTitle('May Day weekend')[0]).toMatchObject({
      all_day: true,
      start_date: '2027-05-01 00:00:00',
      end_date: '2027-05-02 23:59:59',
    });
    expect(byTitle('Call in UTC')[0]).toMatchObject({
      timezone: 'UTC',
      utc_start_date: '2027-06-10 08:00:00',
      utc_end_date: '2027-06-10 09:30:00',
    });
    expect(byTitle('Called off')).toEqual([]);
  });

  it('Outlook: a Windows zone name, EXDATE, a moved occurrence, a private all-day event', () => {
    const board = events.filter((e) => String(e.title).startsWith('Board meeting'));
    expect(board.map((e) => [e.title, e.start_date, e.utc_start_date, e.timezone])).toEqual([
      ['Board meeting', '2027-01-05 10:00:00', '2027-01-05 09:00:00', 'Europe/Berlin'],
      ['Board meeting (moved)', '2027-03-02 14:00:00', '2027-03-02 13:00:00', 'Europe/Berlin'],
      ['Board meeting', '2027-04-06 10:00:00', '2027-04-06 08:00:00', 'Europe/Berlin'],
      ['Board meeting', '2027-05-04 10:00:00', '2027-05-04 08:00:00', 'Europe/Berlin'],
      ['Board meeting', '2027-06-01 10:00:00', '2027-06-01 08:00:00', 'Europe/Berlin'],
    ]);
    expect(board[1]).toMatchObject({ venue: { venue: 'Room 4.02' }, recurrence: null });
    // The series excludes its EXDATE and the start its changed occurrence replaces.
    expect(board[0].recurrence).toMatchObject({
      rules: ['FREQ=MONTHLY;UNTIL=20270701T000000Z;BYDAY=1TU'],
      exdates: ['2027-02-02 10:00:00', '2027-03-02 10:00:00'],
    });
    expect(board[0]).toMatchObject({
      venue: { venue: 'Room 4.01' },
      organizer: [{ organizer: 'Mária Kovács', email: 'maria@example.com' }],
    });
    expect(byTitle('Day off')[0]).toMatchObject({
      status: 'private',
      all_day: true,
      start_date: '2027-04-15 00:00:00',
      end_date: '2027-04-15 23:59:59',
    });
  });

  it('Apple: VTIMEZONE, GEO, URL and CATEGORIES; a TZID without VTIMEZONE; a floating time', () => {
    expect(byTitle('Jazz at the Pier')[0]).toMatchObject({
      timezone: 'America/Los_Angeles',
      start_date: '2027-03-20 19:00:00',
      utc_start_date: '2027-03-21 02:00:00',
      utc_end_date: '2027-03-21 04:00:00',
      website: 'https://pier39.example/jazz?night=1&amp;x=2',
      categories: [{ name: 'Jazz' }, { name: 'Music' }],
      venue: { venue: 'Pier 39', geo_lat: 37.808673, geo_lng: -122.409821 },
    });
    expect(byTitle('Tokyo standup')[0]).toMatchObject({
      timezone: 'Asia/Tokyo',
      utc_start_date: '2027-04-01 00:00:00',
      categories: [{ name: 'Work' }],
    });
    // No zone in the file: the site's (UTC here).
    expect(byTitle('Floating lunch')[0]).toMatchObject({
      start_date: '2027-04-02 12:00:00',
      utc_start_date: '2027-04-02 12:00:00',
    });
  });

  it('changes nothing when run again, and picks up an edit by UID', async () => {
    for (const file of ['google.ics', 'outlook.ics', 'apple.ics']) {
      const again = await importFile(file);
      expect(again.stdout).toMatch(/Total: 0 created, 0 updated, \d+ unchanged, \d+ skipped\./);
    }
    // The window does not cut a series: one that reaches into it is the same series.
    const wider = await importFile('outlook.ics', ['--from', '2026-01-01', '--to', '2028-01-01']);
    expect(wider.stdout).toContain('Total: 0 created, 0 updated, 3 unchanged, 0 skipped.');
    const narrow = await importFile('google.ics', ['--from', '2027-03-20', '--to', '2027-04-05']);
    expect(narrow.stdout).toContain('Total: 0 created, 0 updated, 3 unchanged, 1 skipped.');
    // A window after the series leaves it out (the single events still come).
    const after = await importFile('google.ics', ['--from', '2027-05-01', '--to', '2027-12-01']);
    expect(after.stdout).toContain('Total: 0 created, 0 updated, 2 unchanged, 1 skipped.');

    // The same file edited: the event of that UID is updated, not created again.
    const copy = join(mkdtempSync(join(tmpdir(), 'cal-ics-')), 'club.ics');
    const text = readFileSync(join(FIXTURES, 'google.ics'), 'utf8');
    writeFileSync(copy, text);
    const first = await importFile(copy);
    expect(first.stdout).toContain('Total: 3 created, 0 updated, 0 unchanged, 1 skipped.');
    const editedText = text.replace('SUMMARY:Call in UTC', 'SUMMARY:Call in UTC (new link)');
    writeFileSync(copy, editedText);
    const edited = await importFile(copy);
    expect(edited.stdout).toContain('Total: 0 created, 1 updated, 2 unchanged, 1 skipped.');
    // An edit of the rule is an update of the same series, never a second one.
    writeFileSync(
      copy,
      editedText.replace(
        'RRULE:FREQ=WEEKLY;COUNT=4;BYDAY=TH',
        'RRULE:FREQ=WEEKLY;COUNT=2;BYDAY=TH',
      ),
    );
    const rule = await importFile(copy);
    expect(rule.stdout).toContain('Total: 0 created, 1 updated, 2 unchanged, 1 skipped.');
  }, 120_000);

  it('replaces the events an earlier version made of a series, one per occurrence', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cal-ics-merge-'));
    const uid = 'merge-series@example.com';
    const calendar = (vevents: string[]) =>
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'PRODID:-//test//EN',
        ...vevents,
        'END:VCALENDAR',
        '',
      ].join('\r\n');
    const vevent = (lines: string[]) => ['BEGIN:VEVENT', ...lines, 'END:VEVENT'].join('\r\n');
    // What an earlier version left: each occurrence an event keyed `{UID}@{UTC start}`.
    const days = ['03', '10', '17', '24'];
    // One address for both (the map is per source).
    const file = join(dir, 'choir.ics');
    writeFileSync(
      file,
      calendar(
        days.map((day) =>
          vevent([
            `UID:${uid}@2027-06-${day} 17:00:00`,
            `DTSTART;TZID=Europe/Budapest:202706${day}T190000`,
            `DTEND;TZID=Europe/Budapest:202706${day}T210000`,
            'SUMMARY:Merged choir',
          ]),
        ),
      ),
    );
    expect((await importFile(file)).stdout).toContain('Total: 4 created, 0 updated');
    // The source as this version reads it: one series, its second occurrence moved.
    writeFileSync(
      file,
      calendar([
        vevent([
          `UID:${uid}`,
          'DTSTART;TZID=Europe/Budapest:20270603T190000',
          'DTEND;TZID=Europe/Budapest:20270603T210000',
          'RRULE:FREQ=WEEKLY;COUNT=4',
          'SUMMARY:Merged choir',
        ]),
        vevent([
          `UID:${uid}`,
          'RECURRENCE-ID;TZID=Europe/Budapest:20270610T190000',
          'DTSTART;TZID=Europe/Budapest:20270611T180000',
          'DTEND;TZID=Europe/Budapest:20270611T200000',
          'SUMMARY:Merged choir, moved',
        ]),
      ]),
    );
    const merged = await importFile(file);
    // The series is new; the moved occurrence keeps its event; the other three go.
    expect(merged.stdout).toContain('Total: 1 created, 1 updated, 0 unchanged, 0 skipped.');
    expect(merged.stdout).toContain(
      '3 events imported earlier as occurrences of series now imported whole moved to the trash.',
    );
    const again = await importFile(file);
    expect(again.stdout).toContain('Total: 0 created, 0 updated, 2 unchanged, 0 skipped.');
    expect(again.stdout).not.toContain('trash');
    const listed = (
      await request(app!.getHttpServer())
        .get(`${BASE}/events?per_page=50&start_date=2027-06-01&end_date=2027-06-30&search=Merged`)
        .set('Authorization', auth)
        .expect(200)
    ).body.events as Json[];
    expect(listed.map((e) => [e.start_date, e.title])).toEqual([
      ['2027-06-03 19:00:00', 'Merged choir'],
      ['2027-06-11 18:00:00', 'Merged choir, moved'],
      ['2027-06-17 19:00:00', 'Merged choir'],
      ['2027-06-24 19:00:00', 'Merged choir'],
    ]);
  }, 120_000);

  it('reads a feed by URL, and refuses what is not iCalendar', async () => {
    const body = readFileSync(join(FIXTURES, 'apple.ics'));
    const server: Server = createServer((req, res) => {
      if (req.url === '/cal.ics') {
        res.writeHead(200, { 'Content-Type': 'text/calendar' });
        res.end(body);
      } else {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html>not a calendar</html>');
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    try {
      const args = [
        'import:ics',
        `http://127.0.0.1:${port}/cal.ics`,
        '--author',
        IMPORTER.login,
        '--dry-run',
        ...WINDOW,
      ];
      const feed = await cli(args, { DATABASE_URL: url });
      expect(feed.code).toBe(0);
      expect(feed.stdout).toContain(
        `Dry run (nothing written) from ics:http://127.0.0.1:${port}/cal.ics:`,
      );
      expect(feed.stdout).toContain(
        'would create an event from 6B29FC40-CA47-1067-B31D-00DD010662DA "Jazz at the Pier"',
      );
      expect(feed.stdout).toContain('Total: 3 created, 0 updated, 0 unchanged, 0 skipped.');
      // In the operator's language: LC_ALL before LANG.
      const hu = await cli(args, { DATABASE_URL: url, LANG: 'hu_HU.UTF-8' });
      expect(hu.stdout).toContain(
        `Próbafuttatás eredménye (ics:http://127.0.0.1:${port}/cal.ics; semmi sem íródott):`,
      );
      expect(hu.stdout).toContain(
        'létrehozna egy eseményt ebből: 6B29FC40-CA47-1067-B31D-00DD010662DA „Jazz at the Pier”',
      );
      expect(hu.stdout).toMatch(
        /^ {2}esemény: +3 létrehozva, 0 módosítva, 0 változatlan, 0 kihagyva$/m,
      );
      expect(hu.stdout).toContain(
        'Összesen: 3 létrehozva, 0 módosítva, 0 változatlan, 0 kihagyva.',
      );
      const ro = await cli(args, { DATABASE_URL: url, LANG: 'hu_HU.UTF-8', LC_ALL: 'ro_RO.UTF-8' });
      expect(ro.stdout).toContain(
        'ar crea un eveniment din 6B29FC40-CA47-1067-B31D-00DD010662DA „Jazz at the Pier”',
      );
      expect(ro.stdout).toContain('Total: create: 3, actualizate: 0, neschimbate: 0, omise: 0.');
      const html = await cli(
        ['import:ics', `http://127.0.0.1:${port}/`, '--author', IMPORTER.login],
        { DATABASE_URL: url },
      );
      expect(html.code).toBe(1);
      expect(html.stderr).toMatch(/is not iCalendar/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  }, 120_000);
});
