import { DataSource } from 'typeorm';
import { useTestApp } from '../helpers/app-fixture.js';
import { viewDays } from '../helpers/calendar-views.js';
import { isMysql } from '../helpers/database.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';

/**
 * A busy month (issue 50): 1,000 events and 50 weekly series in June 2030 is computed in one
 * range query and one read per page of linked records, whatever the number of its events, on
 * both engines; the month shows the first events of each day and "+N more".
 */

const BASE = '/cal/events/v1';
const EVENTS = 1_000;
const SERIES = 50;
const FIRST_ID = 500_000;

describe('a busy calendar month (e2e)', () => {
  const { app, http, users } = useTestApp();
  const venues: number[] = [];

  beforeAll(async () => {
    for (const name of ['North Hall', 'South Hall', 'Garden']) {
      const res = await http()
        .post(`${BASE}/venues`)
        .set('Authorization', users.editor.header)
        .send({ venue: name, status: 'publish' })
        .expect(201);
      venues.push((res.body as { id: number }).id);
    }
    // The series through the API (their occurrences are the service's to build).
    for (let i = 0; i < SERIES; i++) {
      const day = String(1 + (i % 7)).padStart(2, '0');
      await http()
        .post(`${BASE}/events`)
        .set('Authorization', users.editor.header)
        .send({
          status: 'publish',
          title: `Weekly ${i}`,
          start_date: `2030-06-${day} 18:00:00`,
          end_date: `2030-06-${day} 19:00:00`,
          venue: venues[i % venues.length],
          recurrence: { rules: ['FREQ=WEEKLY;COUNT=5'] },
        })
        .expect(201);
    }
    // The single events in bulk, some of several days, most at a venue.
    const ds = app().get(DataSource);
    const rows: string[] = [];
    const values: unknown[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const id = FIRST_ID + i;
      const day = 1 + (i % 30);
      const last = Math.min(30, day + (i % 10 === 0 ? 2 : 0));
      const at = (d: number, hour: number) =>
        `2030-06-${String(d).padStart(2, '0')} ${String(hour).padStart(2, '0')}:00:00`;
      rows.push(`(?, 'publish', ?, ?, '', '', '2020-01-01 00:00:00', '2020-01-01 00:00:00',
        '2020-01-01 00:00:00', '2020-01-01 00:00:00', 'en', ?, ?, ?, ?, 'UTC', '[]', ?)`);
      const hour = 8 + (i % 12);
      values.push(
        id,
        `Busy ${i}`,
        `busy-${i}`,
        at(day, hour),
        at(last, hour + 1),
        at(day, hour),
        at(last, hour + 1),
        i % 4 === 3 ? null : venues[i % venues.length],
      );
    }
    const ids = Array.from({ length: EVENTS }, (_, i) => `(${FIRST_ID + i}, 'event')`);
    await ds.query(`INSERT INTO post_ids (id, kind) VALUES ${ids.join(', ')}`);
    await ds.query(
      `INSERT INTO events (id, status, title, slug, description, excerpt, date, date_utc, modified,
         modified_utc, language, start_date, end_date, start_utc, end_utc, timezone, cost,
         venue_id) VALUES ${rows.join(', ')}`,
      values,
    );
    await ds.query(isMysql() ? 'ANALYZE TABLE events' : 'ANALYZE');
  }, 300_000);

  it('one range query and one read per page of linked records, for 1,000 events and 50 series', async () => {
    // Written behind the service's back: no cached answer, count, page or payload is reused.
    await coldCaches(app());
    const statements: string[] = [];
    let html = '';
    const n = await countQueries(
      app(),
      async () => {
        html = (await http().get('/events/month/2030-06/').expect(200)).text;
      },
      statements,
    );
    // The range: the union of single events and occurrences, once.
    expect(statements.filter((s) => /UNION ALL/.test(s))).toHaveLength(1);
    // Then the page's records and their links, each read once: the events' rows (and their
    // translations), their organizers and terms; the venues come with them.
    const eventRows = statements.filter((s) => /^SELECT [`"]id[`"], [`"]author_id[`"]/.test(s));
    expect(eventRows.length).toBeGreaterThanOrEqual(1);
    expect(eventRows.length).toBeLessThanOrEqual(2);
    expect(n).toBeLessThanOrEqual(8);
    // As many as for a month of a few events (the same view narrowed by ?search=).
    await coldCaches(app());
    const few = await countQueries(app(), () =>
      http().get('/events/month/2030-06/?search=Busy%2099').expect(200),
    );
    expect(n).toBe(few);

    // Every day of June holds more than a cell lists: three each, and "+N more" with the rest.
    const days = viewDays(html).filter((d) => d.day.startsWith('2030-06-'));
    expect(days).toHaveLength(30);
    for (const day of days) expect(day.links).toHaveLength(3);
    expect(days.every((d) => d.more > 0)).toBe(true);
    // Each of the 1,000 on its days (a tenth on three), each series' weeks in June: all placed.
    let placed = EVENTS + (EVENTS / 10) * 2;
    for (let i = 0; i < SERIES; i++) {
      for (let week = 0, d = 1 + (i % 7); week < 5 && d <= 30; week++, d += 7) placed++;
    }
    expect(days.reduce((sum, d) => sum + d.links.length + d.more, 0)).toBe(placed);
  }, 120_000);
});
