import { DataSource } from 'typeorm';
import { useTestApp } from '../helpers/app-fixture.js';

const BASE = '/cal/events/v1';
const PROVISIONAL = 10_000_000;
// oxlint-disable-next-line typescript/no-explicit-any
type Tec = Record<string, any>;

/**
 * The answer of a write of a recurring event (CONTRACT §9) is what a read of the id it answers
 * shows right after: the real id of a series at its first occurrence (dates, details, time-zone
 * abbreviation, dated url), by create, update by id, by slug and by provisional id with each
 * `_tec_update_type`; only `json_ld`, which single reads carry and write answers do not, differs.
 */
describe('recurring events: write answers show what a read shows (e2e)', () => {
  const { app, http, users } = useTestApp();
  const post = (path: string, body: object, expected = 200) =>
    http()
      .post(`${BASE}${path}`)
      .set('Authorization', users.editor.header)
      .send(body)
      .expect(expected)
      .then((res) => res.body as Tec);
  /** The answer against a read of its id, `json_ld` aside. */
  const expectRead = async (answer: Tec) => {
    const read = (
      await http()
        .get(`${BASE}/events/${answer.id}`)
        .set('Authorization', users.editor.header)
        .expect(200)
    ).body as Tec;
    const { json_ld: _a, ...written } = answer;
    const { json_ld: _b, ...shown } = read;
    expect(written).toEqual(shown);
    return read;
  };
  const occurrences = async (eventId: number) => {
    const rows: Array<{ id: number | string }> = await app()
      .get(DataSource)
      .query('SELECT id FROM event_occurrences WHERE event_id = ? ORDER BY start_date', [eventId]);
    return rows.map((r) => PROVISIONAL + Number(r.id));
  };

  const series = (title: string, extra: object = {}) => ({
    title,
    status: 'publish',
    start_date: '2032-03-02 19:00:00',
    end_date: '2032-03-02 21:00:00',
    timezone: 'Europe/Budapest',
    recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'] },
    ...extra,
  });

  it('answers a created series at its first occurrence, also when its own start is excluded', async () => {
    const plain = await post('/events', series('Answers plain'), 201);
    expect(plain.url).toMatch(/\/2032-03-02\/$/);
    await expectRead(plain);
    const excluded = await post(
      '/events',
      series('Answers excluded', {
        recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'], exdates: ['2032-03-02'] },
      }),
      201,
    );
    expect(excluded.start_date).toBe('2032-03-09 19:00:00');
    await expectRead(excluded);
    // A single event answers as before.
    const single = await post('/events', series('Answers single', { recurrence: undefined }), 201);
    expect(single.recurrence).toBeNull();
    await expectRead(single);
  });

  it('answers updates by id and by slug at the first occurrence', async () => {
    const created = await post('/events', series('Answers update'), 201);
    // Excluding the event's own start moves the first occurrence; so do new dates.
    const excluded = await post(`/events/${created.id}`, {
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'], exdates: ['2032-03-02'] },
    });
    expect(excluded.start_date).toBe('2032-03-09 19:00:00');
    expect(excluded.timezone_abbr).toBe('CET');
    await expectRead(excluded);
    const moved = await post(`/events/${created.id}`, {
      start_date: '2032-03-30 18:00:00',
      end_date: '2032-03-30 20:00:00',
      recurrence: { rules: ['FREQ=WEEKLY;COUNT=6'], exdates: ['2032-03-30'] },
    });
    expect(moved.start_date).toBe('2032-04-06 18:00:00');
    expect(moved.timezone_abbr).toBe('CEST');
    await expectRead(moved);
    const bySlug = await post(`/events/by-slug/${created.slug}`, { excerpt: 'By slug' });
    await expectRead(bySlug);
    // Removing the series answers the event's own dates again.
    const single = await post(`/events/${created.id}`, { recurrence: {} });
    expect(single.start_date).toBe('2032-03-30 18:00:00');
    await expectRead(single);
  });

  it('answers updates by provisional id with each update type', async () => {
    const created = await post('/events', series('Answers provisional'), 201);
    let ids = await occurrences(created.id);
    const all = await post(`/events/${ids[1]}`, { excerpt: 'All of them' });
    expect(all.id).toBe(created.id);
    await expectRead(all);
    const first = await post(`/events/${ids[0]}`, {
      _tec_update_type: 'upcoming',
      excerpt: 'From the first',
    });
    expect(first.id).toBe(created.id);
    await expectRead(first);
    const single = await post(`/events/${ids[2]}`, {
      _tec_update_type: 'single',
      title: 'Answers provisional, one',
    });
    expect(single.start_date).toBe('2032-03-16 19:00:00');
    expect(single.recurrence).toBeNull();
    await expectRead(single);
    ids = await occurrences(created.id);
    const upcoming = await post(`/events/${ids[3]}`, {
      _tec_update_type: 'upcoming',
      title: 'Answers provisional, later',
    });
    expect(upcoming.id).not.toBe(created.id);
    expect(upcoming.start_date).toBe('2032-03-30 19:00:00');
    expect(upcoming.url).toMatch(/\/2032-03-30\/$/);
    await expectRead(upcoming);
    // The series itself, now ending before that occurrence.
    await expectRead(await post(`/events/${created.id}`, { excerpt: 'Head' }));
  });

  it('answers an all-day series and a cancelled first occurrence', async () => {
    const created = await post(
      '/events',
      series('Answers all day', {
        all_day: true,
        start_date: '2032-01-31 00:00:00',
        end_date: '2032-01-31 23:59:59',
        recurrence: { rules: ['FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=4'] },
      }),
      201,
    );
    await expectRead(created);
    const [first] = await occurrences(created.id);
    const cancelled = (
      await http()
        .delete(`${BASE}/events/${first}`)
        .set('Authorization', users.editor.header)
        .expect(200)
    ).body as Tec;
    expect(cancelled.start_date).toBe('2032-02-29 00:00:00');
    await expectRead(cancelled);
  });
});
