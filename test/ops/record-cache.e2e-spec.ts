import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { ScheduledPublications } from '../../src/database/scheduled-publications.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';

const API = '/cal/events/v1';

/**
 * The record cache (RECORD_CACHE_MB, CONTRACT §1): a payload built for one URL serves every other URL that shows
 * the record to a reader like the first, until the next write; readers who see something else
 * (another user, a password, context=edit) never get it.
 */
describe('record payload cache (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  let ids: number[];
  const http = () => request(app.getHttpServer());
  const as = (role: keyof RoleUsers) => ({ Authorization: users[role].header });
  const window = 'start_date=2095-01-01&end_date=2095-12-31';

  beforeAll(async () => {
    // The response cache off: every request below runs the handler.
    app = await createTestApp({ env: { RESPONSE_CACHE_TTL_MS: '0', RECORD_CACHE_MB: '16' } });
    users = await createRoleUsers(app);
    ids = [];
    for (let i = 1; i <= 3; i++) {
      const res = await http()
        .post(`${API}/events`)
        .set(as('editor'))
        .send({
          title: `Cached ${i}`,
          description: `Cached description ${i}`,
          start_date: `2095-01-0${i} 10:00:00`,
          end_date: `2095-01-0${i} 12:00:00`,
          venue: { venue: `Cache Hall ${i}`, city: 'Pécs' },
          organizer: [{ organizer: 'Cache Org' }],
          categories: ['Cache Category'],
          ...(i === 3 ? { password: 'sesame' } : {}),
        })
        .expect(201);
      ids.push(res.body.id as number);
    }
  });
  afterAll(() => closeApp(app));

  it('serves the events of one list to another list with other filters from one row query', async () => {
    const coldQueries = await countQueries(app, async () => {
      await coldCaches(app);
      await http().get(`${API}/events?${window}&featured=0`).expect(200);
    });
    const first = await http().get(`${API}/events?${window}`).expect(200);
    let other!: request.Response;
    const warmQueries = await countQueries(app, async () => {
      other = await http().get(`${API}/events?${window}&categories=cache-category`).expect(200);
    });
    expect(other.body.events).toEqual(first.body.events);
    // Both count their total; the warm page needs its rows only: no venue, organizer, term or
    // translation look-ups.
    expect(warmQueries).toBeLessThan(coldQueries);
  });

  it('shows a write at once, in every list and on the record', async () => {
    await http().get(`${API}/events?${window}`).expect(200);
    await http().get(`${API}/events/${ids[0]}`).expect(200);
    await http()
      .post(`${API}/events/${ids[0]}`)
      .set(as('editor'))
      .send({ title: 'Renamed' })
      .expect(200);
    const list = await http().get(`${API}/events?${window}`).expect(200);
    expect(list.body.events[0].title).toBe('Renamed');
    expect((await http().get(`${API}/events/${ids[0]}`).expect(200)).body.title).toBe('Renamed');
    // A linked venue's change reaches the events that embed it.
    const venueId = list.body.events[0].venue.id as number;
    await http()
      .post(`${API}/venues/${venueId}`)
      .set(as('editor'))
      .send({ venue: 'Moved Hall' })
      .expect(200);
    const after = await http().get(`${API}/events?${window}`).expect(200);
    expect(after.body.events[0].venue.venue).toBe('Moved Hall');
  });

  it('answers a record read again, by id or slug, without a query until the next write', async () => {
    const byId = `${API}/events/${ids[1]}`;
    await app.get(ScheduledPublications).settled();
    const first = await http().get(byId).expect(200);
    const bySlug = `${API}/events/by-slug/${first.body.slug as string}`;
    await http().get(bySlug).expect(200);
    let again!: request.Response;
    let slugAgain!: request.Response;
    expect(await countQueries(app, async () => (again = await http().get(byId).expect(200)))).toBe(
      0,
    );
    expect(
      await countQueries(app, async () => (slugAgain = await http().get(bySlug).expect(200))),
    ).toBe(0);
    expect(again.body).toEqual(first.body);
    expect(slugAgain.body).toEqual(first.body);
    // The checks run on the kept row for every request: a password, who asks.
    const locked = `${API}/events/${ids[2]}`;
    await http().get(locked).expect(403);
    await http().get(`${locked}?password=sesame`).expect(200);
    expect(
      await countQueries(app, async () => {
        const denied = await http().get(locked).expect(403);
        expect(denied.body.code).toBe('event-password-protected');
        await http().get(`${locked}?password=sesame`).expect(200);
      }),
    ).toBe(0);
    // A write, and the next read takes the row again and shows it.
    await http().post(byId).set(as('editor')).send({ title: 'Read again' }).expect(200);
    let after!: request.Response;
    expect(
      await countQueries(app, async () => (after = await http().get(byId).expect(200))),
    ).toBeGreaterThan(0);
    expect(after.body.title).toBe('Read again');
  });

  it('keeps what a password or an editor unlocked from everyone else', async () => {
    const path = `${API}/events?${window}`;
    const locked = (res: request.Response) =>
      (res.body.events as Array<{ id: number; description: string }>).find((e) => e.id === ids[2])!;
    expect(locked(await http().get(`${path}&password=sesame`).expect(200)).description).toContain(
      'Cached',
    );
    const editor = await http().get(`${path}&context=edit`).set(as('editor')).expect(200);
    expect(locked(editor).description).not.toBe('');
    for (const res of [
      await http().get(path).expect(200),
      await http().get(`${path}&password=wrong`).expect(200),
      await http().get(`${path}&context=edit`).set(as('subscriber')).expect(200),
    ]) {
      expect(locked(res).description).toBe('');
    }
  });

  it('keeps one language and one namespace apart from the others', async () => {
    const en = await http().get(`${API}/events/${ids[1]}`).expect(200);
    const plugin = await http().get(`/wp-json/tribe/events/v1/events/${ids[1]}`).expect(200);
    expect(en.body.rest_url).toContain('/cal/events/v1/');
    expect(plugin.body.rest_url).toContain('/tribe/events/v1/');
    const hu = await http().get(`/hu${API}/events?${window}`).expect(200);
    expect(hu.body.events).toEqual([]);
  });

  it("keeps a translated event's payload while another group is written, and drops it for its own", async () => {
    const create = async (title: string, day: string, extra: Record<string, unknown> = {}) =>
      (
        await http()
          .post(`${API}/events`)
          .set(as('editor'))
          .send({
            title,
            start_date: `2095-03-${day} 10:00:00`,
            end_date: `2095-03-${day} 11:00:00`,
            ...extra,
          })
          .expect(201)
      ).body.id as number;
    const a = await create('Group A', '01');
    const aHu = await create('A csoport', '01', { i18n_language: 'hu', translation_of: a });
    const b = await create('Group B', '02');
    await create('B csoport', '02', { i18n_language: 'hu', translation_of: b });
    const byId = `${API}/events/${a}`;
    const first = await http().get(byId).expect(200);
    expect(first.body.translations).toMatchObject({ hu: aHu });
    // Another group's member written: A's payload is still the one kept.
    await http()
      .post(`${API}/events/${b}`)
      .set(as('editor'))
      .send({ title: 'Group B2' })
      .expect(200);
    expect(await countQueries(app, () => http().get(byId).expect(200))).toBe(0);
    // Its own translation made a draft: A no longer shows it to everyone.
    await http()
      .post(`${API}/events/${aHu}`)
      .set(as('editor'))
      .send({ status: 'draft' })
      .expect(200);
    const after = await http().get(byId).expect(200);
    expect(after.body.translations).not.toHaveProperty('hu');
  });
  it("reads a page's rows again only when a write could change which events it shows or their order", async () => {
    const page = () => http().get(`${API}/events?${window}`).expect(200);
    const unionReads = async (work: () => Promise<unknown>) => {
      const statements: string[] = [];
      await countQueries(app, work, statements);
      // The page's rows come from the union of single events and occurrences (event-list-sql.ts).
      return statements.filter((sql) => /\bUNION ALL\b/.test(sql)).length;
    };
    await page();
    expect(await unionReads(page)).toBe(0);
    // A description edit changes a payload, not the list: the page keeps its rows, shows the edit.
    await http()
      .post(`${API}/events/${ids[1]}`)
      .set(as('editor'))
      .send({ description: 'Edited, still second' })
      .expect(200);
    let after!: request.Response;
    expect(
      await unionReads(async () => {
        after = await page();
      }),
    ).toBe(0);
    const shown = (res: request.Response) =>
      (res.body.events as Array<{ id: number; description: string }>).map((e) => e.id);
    const order = (res: request.Response) => [ids[0], ids[1]].map((id) => shown(res).indexOf(id));
    expect(order(after)[0]).toBeLessThan(order(after)[1]);
    expect(after.body.events[order(after)[1]].description).toContain('Edited, still second');
    // A new start moves the event within the window: the rows are read again, in the new order.
    await http()
      .post(`${API}/events/${ids[1]}`)
      .set(as('editor'))
      .send({ start_date: '2094-12-31 10:00:00', end_date: '2095-01-01 12:00:00' })
      .expect(200);
    expect(
      await unionReads(async () => {
        after = await page();
      }),
    ).toBe(1);
    expect(order(after)[1]).toBeLessThan(order(after)[0]);
  });
});
