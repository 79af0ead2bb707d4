import { byNumber } from '../sort.js';
import type { Credentials } from '../auth.js';
import { type LinkedSuiteScope, PAST, idsOf } from './scope.js';

/** More of lists: its tests, run inside its describe block. */
export function describeListsFilters(
  s: LinkedSuiteScope,
  { RO, ids }: { RO: string; ids: Record<string, number> },
): void {
  const { k, kind, plural, ROUTE, t, http, as, create, named } = s;
  it('searches fragments within one field (§5.3)', async () => {
    const temple = await http().get(`${RO}?search=temple avenue`).expect(200);
    expect(idsOf(temple.body[plural])).toEqual([ids.temple]);
    const france = await http().get(`${RO}?search=france, ile de`).expect(200);
    expect(idsOf(france.body[plural])).toEqual([ids.france]);
    const mixed = await http().get(`${RO}?search=plain temple`).expect(200);
    expect(mixed.body.total).toBe(0);
    const echoed = new URL(france.body.rest_url).searchParams.get('search');
    expect(echoed).toBe('france, ile de');
    await http().get(`${RO}?search=`).expect(400);
  });

  it('applies status and visibility per caller (§5.2.5, CONTRACT §2)', async () => {
    const bad = await http().get(`${RO}?status=draft`).expect(400);
    expect(bad.body.data.params).toEqual({ status: 'Parametru nevalid.' });
    await http().get(`${RO}?status=publish`).expect(200);
    await http().get(`${RO}?status=foo`).set(as(t.users.editor)).expect(400);

    const editor = await http().get(RO).set(as(t.users.editor)).expect(200);
    expect(editor.body.total).toBe(7);
    expect(new URL(editor.body.rest_url).searchParams.get('status')).toBe('any');
    const drafts = await http().get(`${RO}?status=draft`).set(as(t.users.editor)).expect(200);
    expect(idsOf(drafts.body[plural]).sort(byNumber)).toEqual(
      [ids.draftOfAuthor, ids.draftOfEditor].sort(byNumber),
    );
    const author = await http().get(`${RO}?status=draft`).set(as(t.users.author)).expect(200);
    expect(idsOf(author.body[plural])).toEqual([ids.draftOfAuthor]);
    const subscriber = await http().get(RO).set(as(t.users.subscriber)).expect(200);
    expect(subscriber.body.total).toBe(5);
  });

  it(`searches the ${kind}'s own fields (§5.3)`, async () => {
    for (const { body, search, found } of k.ownSearch) {
      const r = await create(t.users.editor, body);
      const q = new URLSearchParams({ search, per_page: '50' });
      const res = await http().get(`${ROUTE}?${q.toString()}`).expect(200);
      expect(idsOf(res.body[plural])).toEqual(found ? [r.id] : []);
    }
  });

  it(`lists only ${plural} of the request language`, async () => {
    const en = await http().get(`${ROUTE}?search=Temple&per_page=50`).expect(200);
    expect(idsOf(en.body[plural])).not.toContain(ids.temple);
  });

  describe('event filters', () => {
    let withPublished: number;
    let withDraftOnly: number;
    let withPast: number;
    let withPrivateUpcoming: number;
    let eventId: number;

    beforeAll(async () => {
      const make = async (name: string) =>
        (await create(t.users.editor, named(name, { phone: 'Kolozsvár' }), '/ro')).id as number;
      withPublished = await make('Has upcoming');
      withDraftOnly = await make('Only a draft event');
      withPast = await make('Only a past event');
      withPrivateUpcoming = await make('Private upcoming');
      eventId = await t.insertEvent({ linked: [withPublished], language: 'ro' });
      await t.insertEvent({ linked: [withDraftOnly], status: 'draft', language: 'ro' });
      await t.insertEvent({ linked: [withPast], start: PAST, language: 'ro' });
      await t.insertEvent({ linked: [withPrivateUpcoming], status: 'private', language: 'ro' });
    });

    const listed = async (query: string, who?: Credentials) => {
      const req = http().get(`${RO}?search=Kolozsvár&per_page=50&${query}`);
      if (who) req.set(as(who));
      const res = await req.expect(200);
      return idsOf(res.body[plural]).sort(byNumber);
    };

    it('filters by a linked event and rejects ids that are not events', async () => {
      const res = await http().get(`${RO}?event=${eventId}`).expect(200);
      expect(idsOf(res.body[plural])).toEqual([withPublished]);
      expect(new URL(res.body.rest_url).searchParams.get('event')).toBe(String(eventId));
      for (const bad of [String(withPublished), '999999', 'x', '0']) {
        const r = await http().get(`${RO}?event=${bad}`).expect(400);
        expect(r.body.code).toBe('rest_invalid_param');
        expect(Object.keys(r.body.data.params)).toEqual(['event']);
      }
    });

    it('filters by has_events (draft and pending events do not count)', async () => {
      expect(await listed('has_events=1')).toEqual(
        [withPublished, withPast, withPrivateUpcoming].sort(byNumber),
      );
      expect(await listed('has_events=no')).toEqual([withDraftOnly]);
    });

    it('filters by upcoming events the caller may see', async () => {
      expect(await listed('only_with_upcoming=true')).toEqual([withPublished]);
      expect(await listed('only_with_upcoming=1', t.users.editor)).toEqual(
        [withPublished, withDraftOnly, withPrivateUpcoming].sort(byNumber),
      );
      expect(await listed('only_with_upcoming=0')).toHaveLength(4);
      const res = await http().get(`${RO}?only_with_upcoming=yes`).expect(200);
      expect(new URL(res.body.rest_url).searchParams.get('only_with_upcoming')).toBe('1');
    });
  });
}
