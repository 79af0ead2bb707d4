import { DataSource } from 'typeorm';
import { SeriesHorizon } from '../../src/events/series/series-horizon.js';
import { leastThreadCpuMs } from '../helpers/cpu.js';
import { postEvent, useTestApp } from '../helpers/app-fixture.js';
import { TOO_MANY_OCCURRENCES } from '../helpers/occurrences.js';

const BASE = '/cal/events/v1';
const DAY = 86_400_000;
const DENSE =
  'FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28';

/**
 * Series that start long ago (issue 44, CONTRACT §9 "Limits"): what a series costs to expand,
 * store and extend follows its size, not its age. The bound of 1,000 occurrences counts every
 * occurrence a series stores, from its start; a refusal costs at most the expansion of the bound
 * (cut as soon as it goes over), never the series' whole history; the horizon job gives the
 * event loop back between series. On SQLite and MariaDB.
 */
describe('recurring events that start long ago (e2e)', () => {
  const { app, http, users } = useTestApp();
  const create = (start: string, rules: string[]) =>
    postEvent(http, users.author.header, {
      title: `Since ${start}`,
      start_date: `${start} 10:00:00`,
      end_date: `${start} 11:00:00`,
      status: 'publish',
      recurrence: { rules },
    });
  const stored = async (id: number) =>
    Number(
      (
        await app()
          .get(DataSource)
          .query('SELECT COUNT(*) AS n FROM event_occurrences WHERE event_id = ?', [id])
      )[0].n,
    );
  const events = async () =>
    Number((await app().get(DataSource).query('SELECT COUNT(*) AS n FROM events'))[0].n);

  it.each([
    ['1900-01-01', DENSE],
    ['1000-01-01', DENSE],
    ['0001-01-03', 'FREQ=DAILY'],
    ['1900-01-01', 'FREQ=MONTHLY'],
    ['1000-01-01', 'FREQ=YEARLY'],
  ])(
    'refuses a series from %s that stores more than 1,000 occurrences (%s), cheaply',
    async (start, rule) => {
      const before = await events();
      const { value: res, ms } = await leastThreadCpuMs(() => create(start, [rule]), 1500);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject(TOO_MANY_OCCURRENCES);
      // Before: 3-8 s for the dense rule from 1000 (it stepped through every year), the same
      // as an acceptance; now the expansion stops at the 1,001st occurrence.
      expect(ms).toBeLessThan(1500);
      expect(await events()).toBe(before);
    },
  );

  it('keeps /health answering while a hostile series is refused', async () => {
    const health = async () => {
      const started = performance.now();
      await http().get('/health').expect(200);
      return performance.now() - started;
    };
    const [refused, waited] = await Promise.all([
      create('1000-01-01', [DENSE]),
      (async () => {
        let longest = 0;
        for (let i = 0; i < 5; i++) longest = Math.max(longest, await health());
        return longest;
      })(),
    ]);
    expect(refused.status).toBe(400);
    // Before: /health waited the 3-8 s of the refusal.
    expect(waited).toBeLessThan(2000);
  });

  it('stores and shows an accepted old series whole: every occurrence counted, next dates shown', async () => {
    const res = await create('1950-01-01', ['FREQ=MONTHLY']).expect(201);
    const now = new Date();
    // 1950 to the horizon, 730 days ahead: every month's occurrence is stored.
    const months = (now.getUTCFullYear() + 2 - 1950) * 12 + now.getUTCMonth();
    const count = await stored(res.body.id);
    expect(count).toBeGreaterThanOrEqual(months);
    expect(count).toBeLessThanOrEqual(months + 2);
    // The read-time expansion of the next dates runs within the same bounds: never empty.
    const read = await http().get(`${BASE}/events/${res.body.id}`).expect(200);
    expect(read.body.recurrence.next).toHaveLength(3);
    expect(read.body.recurrence.next[0].start_date > new Date().toISOString().slice(0, 10)).toBe(
      true,
    );
  });

  it('extends old series without holding the event loop: one turn per series', async () => {
    const ids: number[] = [];
    for (const start of ['1200-01-01', '1300-01-01', '1400-01-01']) {
      ids.push((await create(start, ['FREQ=YEARLY']).expect(201)).body.id);
    }
    const horizon = app().get(SeriesHorizon);
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    try {
      // A month on: every series' horizon is due.
      expect(await horizon.extendDue(new Date(Date.now() + 30 * DAY))).toBeGreaterThanOrEqual(3);
    } finally {
      clearInterval(ticker);
    }
    expect(ticks).toBeGreaterThanOrEqual(2);
    for (const id of ids) expect(await stored(id)).toBeLessThanOrEqual(1000);
  });
});
