import { useAppAfterMigration } from '../helpers/schema-before.js';

const BASE = '/cal/events/v1';

/**
 * OccurrenceListing1765700000000 on data written before it: the occurrences of existing series
 * get their event's listing columns, so lists show them exactly as before (a Hungarian published
 * series listed under /hu/, a draft one nowhere).
 */
describe('occurrence listing migration on existing data (e2e)', () => {
  const { http } = useAppAfterMigration('OccurrenceListing', async (q) => {
    const series = async (id: number, status: string, language: string) => {
      await q('INSERT INTO post_ids (id, kind) VALUES (?, ?)', [id, 'event']);
      await q(
        `INSERT INTO events (id, status, title, slug, description, excerpt, date, date_utc,
           modified, modified_utc, language, start_date, end_date, start_utc, end_utc, timezone,
           cost, recurrence, occurrences_until)
         VALUES (?, ?, ?, ?, '', '', '2030-01-01 00:00:00', '2030-01-01 00:00:00',
           '2030-01-01 00:00:00', '2030-01-01 00:00:00', ?, '2035-03-06 18:00:00',
           '2035-03-06 19:00:00', '2035-03-06 18:00:00', '2035-03-06 19:00:00', 'UTC', '[]',
           '{"rules":["FREQ=WEEKLY;COUNT=2"],"exdates":[],"rdates":[]}', '9999-12-31 23:59:59')`,
        [id, status, `Series ${id}`, `series-${id}`, language],
      );
      for (const day of ['06', '13']) {
        await q(
          `INSERT INTO event_occurrences (event_id, start_date, end_date, start_utc, end_utc,
             day_index) VALUES (?, ?, ?, ?, ?, 1)`,
          [
            id,
            `2035-03-${day} 18:00:00`,
            `2035-03-${day} 19:00:00`,
            `2035-03-${day} 18:00:00`,
            `2035-03-${day} 19:00:00`,
          ],
        );
      }
    };
    await series(1, 'publish', 'hu');
    await series(2, 'draft', 'en');
  });

  it("lists the occurrences of existing series by their event's language and status", async () => {
    const window = 'start_date=2035-03-01&end_date=2035-03-31';
    const hu = await http().get(`/hu${BASE}/events?${window}`).expect(200);
    expect(
      hu.body.events.map((e: { title: string; start_date: string }) => [e.title, e.start_date]),
    ).toEqual([
      ['Series 1', '2035-03-06 18:00:00'],
      ['Series 1', '2035-03-13 18:00:00'],
    ]);
    expect(hu.body.total).toBe(2);
    const en = await http().get(`${BASE}/events?${window}`).expect(200);
    expect(en.body.total).toBe(0);
  });
});
