import request from 'supertest';
import { DataSource } from 'typeorm';
import { SeriesHorizon } from '../../src/events/series/series-horizon.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import { occurrenceRows } from '../helpers/occurrences.js';

const BASE = '/cal/events/v1';
const DAY = 86_400_000;

/**
 * The rolling horizon of unbounded series (CONTRACT §9), extended as time passes: the
 * clock is the test's own (SeriesHorizon.run(now)), no waiting; on SQLite and MariaDB.
 */
describe('recurring events: the horizon moves with time (e2e)', () => {
  const { app, http, users } = useTestApp();
  let horizon: SeriesHorizon;
  let weekly: number;
  let bounded: number;
  const rows = (eventId: number) => occurrenceRows(app(), eventId, ['id', 'start_date']);
  const until = async (eventId: number) =>
    (
      await app()
        .get(DataSource)
        .query('SELECT occurrences_until AS u FROM events WHERE id = ?', [eventId])
    )[0].u as string;
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  /** A published series starting tomorrow (UTC), `from` to `to`. */
  const tomorrow = (title: string, from: string, to: string, recurrence: object) => ({
    title,
    start_date: `${day(Date.now() + DAY)} ${from}`,
    end_date: `${day(Date.now() + DAY)} ${to}`,
    status: 'publish',
    recurrence,
  });
  const sql = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

  beforeAll(async () => {
    horizon = app().get(SeriesHorizon);
    const create = async (recurrence: object) =>
      (
        await postEvent(
          http,
          users.editor.header,
          tomorrow('Rolling', '18:00:00', '19:00:00', recurrence),
          BASE,
        ).expect(201)
      ).body.id as number;
    weekly = await create({ rules: ['FREQ=WEEKLY'] });
    bounded = await create({ rules: ['FREQ=WEEKLY;COUNT=10'] });
  });

  it('does nothing while the horizon is still ahead', async () => {
    const before = await rows(weekly);
    expect(await horizon.extendDue(new Date(Date.now() + 2 * DAY))).toBe(0);
    expect(await rows(weekly)).toEqual(before);
  });

  it('extends an unbounded series once, keeping its occurrences, whoever runs it', async () => {
    const before = await rows(weekly);
    const untilBefore = await until(weekly);
    const later = new Date(Date.now() + 60 * DAY);
    // Two processes at once: each series is extended by one of them.
    const [a, b] = await Promise.all([horizon.extendDue(later), horizon.extendDue(later)]);
    expect(a + b).toBe(1);
    const after = await rows(weekly);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.length - before.length).toBeGreaterThanOrEqual(8);
    expect(after.length - before.length).toBeLessThanOrEqual(9);
    // 730 days ahead of the new now (the site's zone is UTC).
    expect(await until(weekly)).toBe(sql(later.getTime() + 730 * DAY));
    expect(untilBefore < sql(later.getTime() + 730 * DAY)).toBe(true);
    expect(new Set(after.map((r) => r.start_date)).size).toBe(after.length);
    // A bounded series is complete already.
    expect(await rows(bounded)).toHaveLength(10);
    // The new occurrences are listed.
    const last = after[after.length - 1].start_date.slice(0, 10);
    const listed = await request(app().getHttpServer())
      .get(`${BASE}/events?start_date=${last}&end_date=${last}`)
      .expect(200);
    expect(listed.body.events.map((e: { title: string }) => e.title)).toEqual(['Rolling']);
    // Again at the same time: nothing left to do.
    expect(await horizon.extendDue(later)).toBe(0);
  });

  it('runs one pass per hour among the processes sharing the database (a lease)', async () => {
    const at = new Date(Date.now() + 200 * DAY);
    const passes = await Promise.all([horizon.run(at), horizon.run(at)]);
    expect(passes.sort()).toEqual([0, 1]);
    // The lease holds for the hour, then the next pass finds nothing due.
    expect(await horizon.run(new Date(at.getTime() + 30 * 60_000))).toBe(0);
    const before = await rows(weekly);
    expect(await horizon.run(new Date(at.getTime() + 2 * 3_600_000))).toBe(0);
    expect(await rows(weekly)).toEqual(before);
  });

  it('keeps extending a daily series past its first 1,000 days: only what lies ahead counts', async () => {
    const created = await postEvent(
      http,
      users.editor.header,
      tomorrow('Every day', '08:00:00', '09:00:00', { rules: ['FREQ=DAILY'] }),
      BASE,
    ).expect(201);
    const daily = created.body.id as number;
    // 400 days on, the series stores 1,130 days from its start to its new horizon: more than the
    // bound a write counts, all but the 730 ahead already stored and accepted.
    const later = new Date(Date.now() + 400 * DAY);
    expect(await horizon.extendDue(later)).toBeGreaterThanOrEqual(1);
    expect((await until(daily)) >= sql(later.getTime() + 729 * DAY)).toBe(true);
    expect((await rows(daily)).length).toBeGreaterThan(1000);
  });
});
