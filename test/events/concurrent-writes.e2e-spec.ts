import { DataSource } from 'typeorm';
import { Writes } from '../../src/database/writes.js';
import { SeriesHorizon } from '../../src/events/series/series-horizon.js';
import { useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';

/**
 * Write transactions of one process running at once (CONTRACT §9 storage): on SQLite the
 * driver has one connection, so two transactions may not interleave on it; every write — a
 * create, an update, a series' occurrences, the horizon job's extensions, an occurrence split
 * off — commits whole and alone, and none fails for another being open.
 */
describe('concurrent write transactions in one process (e2e)', () => {
  const { app, http, users } = useTestApp();
  const post = (path: string, body: object) =>
    http().post(`${BASE}${path}`).set('Authorization', users.editor.header).send(body);

  it('runs parallel creates, updates, occurrence edits and the horizon job without a failure', async () => {
    const series = (title: string) => ({
      title,
      status: 'publish',
      start_date: '2026-01-06 19:00:00',
      end_date: '2026-01-06 21:00:00',
      timezone: 'Europe/Budapest',
      recurrence: { rules: ['FREQ=WEEKLY'] },
    });
    const created: number[] = [];
    for (let i = 0; i < 6; i++) {
      created.push((await post('/events', series(`Parallel series ${i}`)).expect(201)).body.id);
    }
    const ds = app().get(DataSource);
    const horizons = async () => {
      const rows: Array<{ until: string }> = await ds.query(
        `SELECT occurrences_until AS until FROM events WHERE id IN (${created.join(',')}) ORDER BY id`,
      );
      return rows.map((r) => r.until);
    };
    const before = await horizons();
    const [firstOccurrence] = (await ds.query(
      'SELECT id FROM event_occurrences WHERE event_id = ? ORDER BY start_date LIMIT 1 OFFSET 3',
      [created[0]],
    )) as Array<{ id: number | string }>;

    const writes = [
      ...Array.from({ length: 20 }, (_, i) =>
        post('/events', {
          title: `Parallel single ${i}`,
          status: 'publish',
          start_date: `2026-02-${String(i + 1).padStart(2, '0')} 10:00:00`,
          end_date: `2026-02-${String(i + 1).padStart(2, '0')} 11:00:00`,
          categories: [`Parallel ${i % 3}`],
        }).then((res) => res.status),
      ),
      ...created
        .slice(1)
        .map((id, i) =>
          post(`/events/${id}`, { excerpt: `Updated ${i}`, tags: [`parallel-${i}`] }).then(
            (res) => res.status,
          ),
        ),
      post(`/events/${10_000_000 + Number(firstOccurrence.id)}`, {
        _tec_update_type: 'single',
        title: 'Parallel single occurrence',
      }).then((res) => res.status),
    ];
    // On SQLite no transaction opens inside another one (the driver would nest it as a
    // savepoint of the other, whose rollback would then take it along).
    const statements: string[] = [];
    const runner = ds.createQueryRunner();
    const query = runner.query.bind(runner);
    if (ds.options.type === 'better-sqlite3') {
      runner.query = ((sql: string, ...rest: unknown[]) => {
        if (/^(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE)/.test(sql)) statements.push(sql);
        return (query as (...args: unknown[]) => Promise<unknown>)(sql, ...rest);
      }) as typeof runner.query;
    }
    // Each transaction yields to the event loop before it commits, as one waiting on a slow
    // statement or a hook would: the others' requests start meanwhile. Turns of the loop, not a
    // time: what matters is that pending requests get their turn, however loaded the machine.
    const yieldTurns = async (turns: number) => {
      for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
    };
    const unhook = app()
      .get(Writes)
      .journal(() => yieldTurns(20));
    // The horizon job runs beside them, 60 days on: every series is due.
    const later = new Date(Date.now() + 60 * 86_400_000);
    const [extended, ...statuses] = await Promise.all([
      app().get(SeriesHorizon).extendDue(later),
      ...writes,
    ]);
    runner.query = query;
    unhook();
    expect(statuses.filter((s) => s !== 200 && s !== 201)).toEqual([]);
    expect(statements.filter((s) => !/^(BEGIN|COMMIT)/.test(s))).toEqual([]);
    expect(extended).toBe(created.length);
    // An edit that writes a series' occurrences again (the occurrence split off the first series)
    // and commits after the job's extension does so at its own clock, the real one, 60 days
    // before the job's: with its own, nearer horizon. Whether it did depends on the order the
    // transactions took; the job's next run extends such a series again, and then every series
    // reaches past where it was.
    const between = await horizons();
    for (const [i, until] of between.entries()) expect(until >= before[i]).toBe(true);
    await app().get(SeriesHorizon).extendDue(later);
    const after = await horizons();
    for (const [i, until] of after.entries()) expect(until > before[i]).toBe(true);
    const [{ n }] = (await ds.query(
      "SELECT COUNT(*) AS n FROM events WHERE title LIKE 'Parallel single%'",
    )) as Array<{ n: number | string }>;
    expect(Number(n)).toBe(21);
    // Every series' occurrences reach its horizon, none twice.
    for (const id of created) {
      const [row] = (await ds.query(
        'SELECT COUNT(*) AS n, COUNT(DISTINCT start_date) AS d FROM event_occurrences WHERE event_id = ?',
        [id],
      )) as Array<{ n: number | string; d: number | string }>;
      expect(Number(row.n)).toBe(Number(row.d));
      expect(Number(row.n)).toBeGreaterThan(100);
    }
  });
});
