import type { Role } from '../../src/common/roles.js';
import { useTestApp } from '../helpers/app-fixture.js';

const SITE = 'http://cal.test';
const WINDOW = 'start_date=2000-01-01&end_date=2100-01-01';

/**
 * The plugin's acceptance scenarios are run a second time through `/wp-json/tribe/events/v1`
 * (CONTRACT §6). This runs a representative table of them through both namespaces and requires the
 * same status, list headers and body, once the plugin's names are mapped back to ours
 * (`tribe/events/v1` → `cal/events/v1`, `tribe_events_cat` → `cal_events_cat`, the post types of
 * query-form page URLs). Language prefixes go before each namespace's root.
 */
describe('the same scenarios under cal/events/v1 and tribe/events/v1 (e2e)', () => {
  const { http, users } = useTestApp();
  const ids: Record<string, number> = {};

  /** A tribe answer with the plugin's names replaced by ours. */
  const toCal = (text: string) =>
    text
      .replace(/\/wp-json(\/(?:en|hu|ro))?\/tribe\/events\/v1/g, '$1/cal/events/v1')
      .replaceAll('tribe/events/v1', 'cal/events/v1')
      // The REST root the client came through (the index's `_links.up`).
      .replaceAll(`"${SITE}/wp-json/"`, `"${SITE}/"`)
      .replaceAll('"tribe_events_cat"', '"cal_events_cat"')
      .replace(/post_type=tribe_(events|venue|organizer)&/g, 'post_type=cal_$1&');

  interface Scenario {
    method?: 'get' | 'post' | 'put' | 'patch' | 'delete';
    /** Under the namespace, `{name}` replaced by the seeded ids. */
    path: string;
    lang?: 'hu' | 'ro';
    as?: Role;
    body?: Record<string, unknown>;
    form?: boolean;
  }

  const send = (s: Scenario, namespace: 'cal' | 'tribe') => {
    const path = s.path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));
    const root = namespace === 'cal' ? '/cal/events/v1' : '/wp-json/tribe/events/v1';
    let req = http()[s.method ?? 'get'](`${s.lang ? `/${s.lang}` : ''}${root}${path}`);
    if (s.as) req = req.set('Authorization', users[s.as].header);
    if (s.form) req = req.type('form');
    return s.body ? req.send(s.body) : req;
  };

  /**
   * An event as the plugin's namespace shows it: without the series and the count that
   * `series=once` adds (CONTRACT §9).
   */
  const withoutSeries = (event: unknown): unknown => {
    if (!event || typeof event !== 'object') return event;
    if (!('recurrence' in event) && !('occurrences_remaining' in event)) return event;
    const {
      recurrence: _series,
      occurrences_remaining: _remaining,
      ...rest
    } = event as Record<string, unknown>;
    return rest;
  };

  /**
   * What the plugin's namespace shows of a `cal/events/v1` answer: the service's own routes
   * (webhooks, users, the recurrence preview) are not the plugin's, so its index and document leave them out (CONTRACT §8),
   * and its events have no `recurrence` (CONTRACT §9).
   */
  const pluginPart = (answer: unknown): unknown => {
    if (!answer || typeof answer !== 'object') return answer;
    let body = withoutSeries(answer) as object;
    if ('events' in body && Array.isArray(body.events)) {
      body = { ...body, events: body.events.map(withoutSeries) };
    }
    const schemas = (body as { components?: { schemas?: Record<string, unknown> } }).components
      ?.schemas;
    if (schemas?.Event) {
      const event = schemas.Event as { properties: Record<string, unknown> };
      body = {
        ...body,
        components: {
          ...(body as { components: object }).components,
          schemas: { ...schemas, Event: { ...event, properties: withoutSeries(event.properties) } },
        },
      };
    }
    const { routes, paths } = body as { routes?: object; paths?: object };
    const keep = (entries: object, own: (key: string) => boolean) =>
      Object.fromEntries(Object.entries(entries).filter(([key]) => !own(key)));
    if (routes)
      return {
        ...body,
        routes: keep(routes, (k) => /\/(webhooks|users|recurrence)(\/|$)/.test(k)),
      };
    if (paths) {
      const tags = (body as { tags?: Array<{ name: string }> }).tags;
      return {
        ...body,
        paths: keep(paths, (k) => /^\/(webhooks|users|recurrence)(\/|$)/.test(k)),
        ...(tags
          ? { tags: tags.filter((tag) => tag.name !== 'webhooks' && tag.name !== 'users') }
          : {}),
      };
    }
    return body;
  };

  const compare = async (s: Scenario) => {
    const cal = await send(s, 'cal');
    const tribe = await send(s, 'tribe');
    const label = `${(s.method ?? 'get').toUpperCase()} ${s.lang ?? ''} ${s.path} ${s.as ?? ''}`;
    expect([label, tribe.status]).toEqual([label, cal.status]);
    expect([label, tribe.headers['x-tec-total']]).toEqual([label, cal.headers['x-tec-total']]);
    expect(tribe.headers['content-type']).toBe(cal.headers['content-type']);
    expect(tribe.text).not.toContain('cal/events/v1');
    expect(tribe.text).not.toContain('cal_events');
    expect([label, JSON.parse(toCal(tribe.text))]).toEqual([label, pluginPart(cal.body)]);
    return { cal, tribe };
  };

  beforeAll(async () => {
    const editor = users.editor.header;
    const post = async (path: string, body: Record<string, unknown>, auth = editor) =>
      (await http().post(`/cal/events/v1${path}`).set('Authorization', auth).send(body).expect(201))
        .body as {
        id: number;
        venue: { id: number };
        organizer: Array<{ id: number }>;
        categories: Array<{ id: number }>;
        tags: Array<{ id: number }>;
      };
    const jazz = await post('/events', {
      title: 'Jazz in the park',
      description: 'Bring a <b>blanket</b>.',
      start_date: '2030-05-01 19:00',
      end_date: '2030-05-01 22:00',
      categories: ['Music', 'Outdoor'],
      tags: ['jazz', 'free'],
      venue: { venue: 'Park Stage', city: 'Sopron', country: 'Hungary', show_map: true },
      organizer: [{ organizer: 'City Culture', email: 'culture@example.org' }],
      cost: '0',
      featured: true,
      image: 'https://images.example.org/jazz.png',
    });
    ids.jazz = jazz.id;
    ids.venue = jazz.venue.id;
    ids.organizer = jazz.organizer[0].id;
    ids.category = jazz.categories[0].id;
    ids.tag = jazz.tags[0].id;
    ids.talk = (
      await post('/events', {
        title: 'Talk on bridges',
        start_date: '2030-06-10 10:00',
        end_date: '2030-06-10 12:00',
        timezone: 'Europe/Budapest',
        categories: ['Lectures'],
        venue: ids.venue,
        cost: '5, 10',
      })
    ).id;
    ids.draft = (
      await post(
        '/events',
        {
          title: 'Secret plan',
          start_date: '2030-07-01 10:00',
          end_date: '2030-07-01 11:00',
          organizer: [{ organizer: 'Hidden Org', status: 'draft' }],
        },
        users.contributor.header,
      )
    ).id;
    ids.locked = (
      await post('/events', {
        title: 'Members only',
        password: 'open sesame',
        start_date: '2030-08-01 10:00',
        end_date: '2030-08-01 11:00',
      })
    ).id;
  });

  const READS: Scenario[] = [
    { path: '' },
    { path: '?context=view' },
    { path: '/doc' },
    { path: '/doc', lang: 'hu' },
    { path: `/events?${WINDOW}` },
    { path: `/events?${WINDOW}&per_page=1&page=2` },
    { path: `/events?${WINDOW}&categories=music` },
    { path: `/events?${WINDOW}&tags[]={tag}` },
    { path: `/events?${WINDOW}&venue={venue}&organizer={organizer}` },
    { path: `/events?${WINDOW}&search=bridges&featured=0` },
    { path: `/events?${WINDOW}&status=draft`, as: 'editor' },
    { path: `/events?${WINDOW}&status=draft`, as: 'contributor' },
    { path: `/events?${WINDOW}&page=9` },
    { path: '/events?per_page=0' },
    { path: '/events?starts_after=not-a-date', lang: 'ro' },
    { path: '/events' },
    { path: '/events/{jazz}' },
    { path: '/events/{talk}', lang: 'hu' },
    { path: '/events/{draft}' },
    { path: '/events/{draft}', as: 'contributor' },
    { path: '/events/{locked}' },
    { path: '/events/{locked}?password=open%20sesame' },
    { path: '/events/999999' },
    { path: '/events/{venue}' },
    { path: '/events/by-slug/jazz-in-the-park' },
    { path: '/events/by-slug/nothing-here' },
    { path: '/venues' },
    { path: '/venues/{venue}' },
    { path: '/venues/by-slug/park-stage' },
    { path: '/venues?has_events=1&only_with_upcoming=1' },
    { path: '/organizers' },
    { path: '/organizers', as: 'editor' },
    { path: '/organizers/{organizer}' },
    { path: '/organizers/999999' },
    { path: '/categories' },
    { path: '/categories?hide_empty=0&orderby=name&order=desc' },
    { path: '/categories/{category}' },
    { path: '/categories/999999', lang: 'hu' },
    { path: '/tags' },
    { path: '/tags/{tag}' },
    { path: '/events?i18n_language=xx' },
  ];

  it.each(READS.map((s) => [`${s.lang ?? ''} ${s.path} ${s.as ?? ''}`, s]))(
    'reads alike: %s',
    async (_, s) => {
      await compare(s);
    },
  );

  const REFUSED_WRITES: Scenario[] = [
    { method: 'post', path: '/events', body: {} },
    { method: 'post', path: '/events', body: { title: 'x', start_date: 'x', end_date: 'x' } },
    { method: 'post', path: '/events', body: { title: 'Anonymous' } },
    { method: 'post', path: '/events', as: 'subscriber', body: { title: 'No' } },
    { method: 'post', path: '/events', as: 'author', body: { title: 'As editor', author: 2 } },
    { method: 'put', path: '/events/{jazz}', as: 'contributor', body: { title: 'Mine now' } },
    { method: 'post', path: '/events/999999', as: 'editor', body: { title: 'Ghost' } },
    { method: 'delete', path: '/events/999999', as: 'editor' },
    { method: 'post', path: '/venues', as: 'editor', body: { venue: 'S', show_map: true } },
    { method: 'post', path: '/venues', as: 'editor', body: { venue: '' }, lang: 'hu' },
    { method: 'post', path: '/organizers', as: 'editor', body: { organizer: 'O', email: 5 } },
    { method: 'post', path: '/categories', as: 'author', body: { name: 'Nope' } },
    { method: 'post', path: '/categories', as: 'editor', body: {} },
    { method: 'delete', path: '/tags/999999', as: 'editor' },
    { method: 'patch', path: '/doc', as: 'editor', body: {} },
  ];

  it.each(REFUSED_WRITES.map((s) => [`${s.method} ${s.path} ${s.as ?? ''}`, s]))(
    'refuses writes alike: %s',
    async (_, s) => {
      const { cal } = await compare(s);
      expect(cal.status).toBeGreaterThanOrEqual(400);
    },
  );

  it('writes alike: each write through the alias reads back the same under both namespaces', async () => {
    const writes: Array<[Scenario, string]> = [
      [
        {
          method: 'post',
          path: '/events',
          as: 'editor',
          body: {
            title: 'Through the alias',
            start_date: '2030-09-01 10:00',
            end_date: '2030-09-01 12:00',
            categories: ['Alias'],
            venue: { venue: 'Alias Hall', show_map: true, show_map_link: false },
            organizer: [{ organizer: 'Alias Org' }],
            status: 'draft',
          },
        },
        '/events',
      ],
      [
        {
          method: 'post',
          path: '/venues',
          as: 'author',
          form: true,
          body: { venue: 'Form Venue', city: 'Győr' },
        },
        '/venues',
      ],
      [
        { method: 'post', path: '/organizers', as: 'editor', body: { organizer: 'Org' } },
        '/organizers',
      ],
      [{ method: 'post', path: '/tags', as: 'editor', body: { name: 'alias-tag' } }, '/tags'],
      [
        { method: 'post', path: '/categories', as: 'editor', body: { name: 'Alias Cat' } },
        '/categories',
      ],
    ];
    for (const [scenario, collection] of writes) {
      // Our own namespace writes its twin under another name (names of terms are unique).
      const twin = Object.fromEntries(
        Object.entries(scenario.body!).map(([k, v]) =>
          ['title', 'venue', 'organizer', 'name'].includes(k) && typeof v === 'string'
            ? [k, `${v} twin`]
            : [k, v],
        ),
      );
      const cal = await send({ ...scenario, body: twin }, 'cal');
      const tribe = await send(scenario, 'tribe');
      expect([collection, tribe.status]).toEqual([collection, cal.status]);
      expect(Object.keys(tribe.body)).toEqual(Object.keys(withoutSeries(cal.body) as object));
      expect(tribe.text).not.toContain('cal/events/v1');
      ids.written = (tribe.body as { id: number }).id;
      if (collection === '/events') ids.aliasEvent = ids.written;
      // The record written through the alias, read through both namespaces.
      await compare({ path: `${collection}/{written}`, as: 'editor' });
    }
    for (const s of [
      {
        method: 'post',
        path: '/events/{aliasEvent}',
        as: 'editor',
        body: { status: 'publish' },
      },
      {
        method: 'patch',
        path: '/events/by-slug/through-the-alias',
        as: 'editor',
        body: { venue: { venue: 'Alias Hall 2', show_map: false } },
      },
    ] as Scenario[]) {
      const tribe = await send(s, 'tribe');
      expect(tribe.status).toBe(200);
      await compare({ path: '/events/{aliasEvent}', as: 'editor' });
    }
    const trashed = await send(
      { method: 'delete', path: '/events/{aliasEvent}', as: 'editor' },
      'tribe',
    );
    expect(trashed.body.status).toBe('trash');
    expect(trashed.body.rest_url).toBe(`${SITE}/wp-json/tribe/events/v1/events/${ids.aliasEvent}`);
    await compare({ method: 'delete', path: '/events/{aliasEvent}', as: 'editor' });
  });
});
