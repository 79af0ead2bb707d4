import { AppModule } from '../../src/app.module.js';
import { EXTENSION_MODULES } from '../../src/extension-modules.js';
import { TrashPurger } from '../../src/posts/purge-trash.js';
import { basic } from '../helpers/auth.js';
import { postRecord, useTestApp } from '../helpers/app-fixture.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';
import { until } from '../helpers/until.js';
import { PROBE, ProbeModule } from './probe.module.js';

const BASE = '/cal/events/v1';
const PLUGIN = '/wp-json/tribe/events/v1';
const dates = { start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 12:00:00' };
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

type Body = Record<string, unknown> & { id: number };

/**
 * The parts of the extension surface Virtual Events does not use, through a small module of the
 * tests (probe.module.ts): venue and organizer payload contributors (batched, per namespace,
 * protected, editors only), routes under the namespace at its every address with the language
 * guard, authentication and the login throttle, and lifecycle listeners hearing created,
 * updated, trashed, deleted and went live (by a write and by the clock).
 */
describe('extension surface: venues, organizers, routes, lifecycle (e2e)', () => {
  const { app, users, http } = useTestApp(
    {
      module: AppModule.withExtensions([...EXTENSION_MODULES, ProbeModule]),
      env: { LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS: '3/15m' },
    },
    60_000,
  );
  const ids: Record<string, number> = {};
  const write = (path: string, body: Record<string, unknown>, status = 201) =>
    postRecord(http, users.editor.header, path, body, status, BASE);

  beforeAll(async () => {
    ids.hall = (await write('/venues', { venue: 'Hall' })).id;
    ids.yard = (await write('/venues', { venue: 'Yard' })).id;
    ids.locked = (await write('/venues', { venue: 'Cellar', password: 'door' })).id;
    ids.ann = (await write('/organizers', { organizer: 'Ann' })).id;
    PROBE.stepFree.add(ids.hall);
    PROBE.stepFree.add(ids.locked);
  }, 60_000);

  describe('venue and organizer payload contributors', () => {
    it('add a venue field to lists, single reads and embedded venues, in both namespaces', async () => {
      for (const base of [BASE, PLUGIN]) {
        const res = await http().get(`${base}/venues?per_page=10`).expect(200);
        const byId = new Map((res.body.venues as Body[]).map((v) => [v.id, v]));
        expect(byId.get(ids.hall)?.step_free).toBe(true);
        expect(byId.get(ids.yard)?.step_free).toBe(false);
        // Protected, read without its password: the protected value.
        expect(byId.get(ids.locked)?.step_free).toBeNull();
        const single = await http().get(`${base}/venues/${ids.hall}`).expect(200);
        expect(single.body.step_free).toBe(true);
      }
      const open = await http().get(`${BASE}/venues/${ids.locked}?password=door`).expect(200);
      expect(open.body.step_free).toBe(true);
      const event = await write('/events', { title: 'At the hall', venue: ids.hall, ...dates });
      expect(event.venue).toMatchObject({ id: ids.hall, step_free: true });
    });

    it('are called once per page, whatever its size, with no query per record', async () => {
      for (let i = 0; i < 3; i++) await write('/venues', { venue: `Room ${i}` });
      const callsOf = async (query: string) => {
        await coldCaches(app());
        PROBE.calls.length = 0;
        const statements: string[] = [];
        await countQueries(
          app(),
          async () => {
            await http().get(`${BASE}/venues${query}`).expect(200);
          },
          statements,
        );
        return { calls: PROBE.calls.filter((c) => c.kind === 'venue'), queries: statements.length };
      };
      const one = await callsOf('?per_page=1');
      const five = await callsOf('?per_page=5');
      expect(one.calls).toEqual([{ kind: 'venue', records: 1 }]);
      expect(five.calls).toEqual([{ kind: 'venue', records: 5 }]);
      expect(five.queries).toBe(one.queries);
    });

    it('show an editors-only field of one namespace to its editors alone', async () => {
      const anonymous = await http().get(`${BASE}/organizers/${ids.ann}`).expect(200);
      expect(anonymous.body.probe_note).toBe('');
      const reading = await http()
        .get(`${BASE}/organizers/${ids.ann}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(reading.body.probe_note).toBe('');
      const editing = await http()
        .get(`${BASE}/organizers/${ids.ann}?context=edit`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(editing.body.probe_note).toBe(`note ${ids.ann}`);
      const subscriber = await http()
        .get(`${BASE}/organizers/${ids.ann}?context=edit`)
        .set('Authorization', users.subscriber.header);
      expect(subscriber.body.probe_note ?? '').toBe('');
      // The plugin's namespace does not carry it, nor documents it.
      const plugin = await http()
        .get(`${PLUGIN}/organizers/${ids.ann}?context=edit`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(plugin.body).not.toHaveProperty('probe_note');
      const pluginDoc = (await http().get(`${PLUGIN}/doc`).expect(200)).body;
      expect(pluginDoc.components.schemas.Organizer.properties).not.toHaveProperty('probe_note');
      expect(pluginDoc.components.schemas.Venue.properties).toHaveProperty('step_free');
    });

    it('describe their fields in each language’s document', async () => {
      const texts = new Set<string>();
      for (const lang of ['en', 'hu', 'ro']) {
        const doc = (await http().get(`/${lang}${BASE}/doc`).expect(200)).body;
        const venue = doc.components.schemas.Venue.properties.step_free;
        expect(venue).toMatchObject({ type: 'boolean', nullable: true });
        texts.add(venue.description as string);
        expect(doc.components.schemas.Organizer.properties.probe_note).toBeDefined();
      }
      expect(texts.size).toBe(3);
      expect([...texts].some((t) => t.startsWith('probe.'))).toBe(false);
    });
  });

  describe('a module’s routes under the namespace', () => {
    it('answer at every address of the namespace, in the language of the request', async () => {
      const addresses: Array<[string, string]> = [
        [`${BASE}/probe/ping`, 'en'],
        [`${PLUGIN}/probe/ping`, 'en'],
        ['/?rest_route=/cal/events/v1/probe/ping', 'en'],
        ['/?rest_route=/tribe/events/v1/probe/ping', 'en'],
        [`/hu${BASE}/probe/ping`, 'hu'],
        [`/ro${PLUGIN}/probe/ping`, 'ro'],
        [`${BASE}/probe/ping?i18n_language=hu`, 'hu'],
      ];
      for (const [address, language] of addresses) {
        const res = await http().get(address).expect(200);
        expect({ address, language: res.body.language }).toEqual({ address, language });
      }
    });

    it('pass the language guard, authentication and the login throttle', async () => {
      const bad = await http().get(`${BASE}/probe/ping?i18n_language=xx`).expect(400);
      expect(bad.body).toMatchObject({ code: 'rest_invalid_param', data: { status: 400 } });
      const anonymous = await http().get(`${BASE}/probe/me`).expect(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      const hu = await http().get(`/hu${BASE}/probe/me`).expect(401);
      expect(hu.body.message).not.toBe(anonymous.body.message);
      const editor = await http()
        .get(`${PLUGIN}/probe/me`)
        .set('Authorization', users.editor.header)
        .expect(200);
      expect(editor.body).toEqual({ role: 'editor' });
      const wrong = await http()
        .get(`${BASE}/probe/me`)
        .set('Authorization', basic('author', 'wrong'))
        .expect(401);
      expect(wrong.body.code).toBe('incorrect_password');
      for (let i = 0; i < 2; i++) {
        await http()
          .get(`${BASE}/probe/me`)
          .set('Authorization', basic('author', `wrong-${i}`))
          .expect(401);
      }
      const blocked = await http()
        .get(`${BASE}/probe/me`)
        .set('Authorization', users.author.header)
        .expect(429);
      expect(blocked.body.code).toBe('rest_too_many_requests');
    });

    it('are documented in each language', async () => {
      const summaries = new Set<string>();
      for (const lang of ['en', 'hu', 'ro']) {
        const doc = (await http().get(`/${lang}${BASE}/doc`).expect(200)).body;
        summaries.add(doc.paths['/probe/ping'].get.summary as string);
      }
      expect(summaries).toEqual(
        new Set(['Answers the language', 'Megadja a nyelvet', 'Răspunde cu limba']),
      );
    });
  });

  describe('lifecycle listeners', () => {
    const heard = (kind: string, id: number) =>
      PROBE.changes.filter((c) => c.kind === kind && c.id === id).map((c) => c.action);

    it('hear created, updated, went live, trashed and deleted, after the commit', async () => {
      const draft = await write('/events', { title: 'Draft', status: 'draft', ...dates });
      await until(() => heard('event', draft.id).length === 1, 10_000, 'created');
      expect(heard('event', draft.id)).toEqual(['created']);
      await write(`/events/${draft.id}`, { description: 'More' }, 200);
      await write(`/events/${draft.id}`, { status: 'publish' }, 200);
      await until(() => heard('event', draft.id).length === 3, 10_000, 'went live');
      expect(heard('event', draft.id)).toEqual(['created', 'updated', 'went_live']);
      const venue = await write('/venues', { venue: 'Brief' });
      await http()
        .delete(`${BASE}/events/${draft.id}`)
        .set('Authorization', users.editor.header)
        .expect(200);
      // Deleted for good: the trash purge (the API only trashes, CONTRACT §3).
      await app().get(TrashPurger).purge(null);
      await until(() => heard('event', draft.id).length === 5, 10_000, 'trashed, deleted');
      expect(heard('event', draft.id)).toEqual([
        'created',
        'updated',
        'went_live',
        'trashed',
        'deleted',
      ]);
      expect(heard('venue', venue.id)).toEqual(['created']);
      // After the commit: the listener read the row as each write left it.
      expect(PROBE.statuses.filter((s) => s.id === draft.id).map((s) => s.status)).toEqual([
        'draft',
        'draft',
        'publish',
        'trash',
        null,
      ]);
    });

    it('hear a scheduled post go live by the clock, with nothing written', async () => {
      const soon = Date.now() + 4000;
      const scheduled = await write('/events', {
        title: 'Goes live',
        status: 'publish',
        date_utc: utc(soon),
        ...dates,
      });
      expect(scheduled.status).toBe('future');
      const venue = await write('/venues', {
        venue: 'Opens',
        status: 'publish',
        date_utc: utc(soon),
      });
      await until(() => heard('event', scheduled.id).length === 2, 20_000, 'the clock');
      expect(heard('event', scheduled.id)).toEqual(['created', 'went_live']);
      await until(() => heard('venue', venue.id).length === 2, 5_000, 'the venue');
      expect(heard('venue', venue.id)).toEqual(['created', 'went_live']);
      // Not before its date (stored to the second).
      expect(Date.now()).toBeGreaterThanOrEqual(Math.floor(soon / 1000) * 1000);
    }, 30_000);
  });
});
