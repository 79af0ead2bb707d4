import { postEvent, useTestApp } from '../helpers/app-fixture.js';

/** Conditional requests (CONTRACT §7): strong ETag, Last-Modified, 304, Cache-Control. */

const BASE = '/cal/events/v1';

describe('conditional requests (e2e)', () => {
  const { http, users } = useTestApp();
  let id: number;
  let secret: number;

  beforeAll(async () => {
    const created = await postEvent(http, users.editor.header, {
      title: 'Concert',
      start_date: '2030-05-01 10:00:00',
      end_date: '2030-05-01 12:00:00',
    }).expect(201);
    id = (created.body as { id: number }).id;
    const locked = await postEvent(http, users.editor.header, {
      title: 'Secret',
      description: 'hidden words',
      password: 'pw',
      start_date: '2030-05-02 10:00:00',
      end_date: '2030-05-02 12:00:00',
    }).expect(201);
    secret = (locked.body as { id: number }).id;
  });

  it.each([
    ['a list', `${BASE}/events?start_date=2000-01-01`],
    ['a single event', `/hu${BASE}/events/__ID__`],
    ['the index', `${BASE}/`],
  ])('%s: strong ETag, and 304 to If-None-Match', async (_, template) => {
    const url = template.replace('__ID__', String(id));
    const first = await http().get(url).expect(200);
    const etag = first.headers.etag;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const again = await http().get(url).set('If-None-Match', etag).expect(304);
    expect(again.text).toBe('');
    expect(again.headers.etag).toBe(etag);
    // A different copy is answered in full.
    await http().get(url).set('If-None-Match', '"other"').expect(200);
  });

  it('a single record has Last-Modified from modified_utc, honoured by If-Modified-Since', async () => {
    const res = await http().get(`${BASE}/events/${id}`).expect(200);
    const modified = (res.body as { modified_utc: string }).modified_utc;
    const lastModified = res.headers['last-modified'];
    expect(new Date(lastModified).toISOString()).toBe(`${modified.replace(' ', 'T')}.000Z`);
    // A second (cached) answer keeps it.
    const cached = await http().get(`${BASE}/events/${id}`).expect(200);
    expect(cached.headers['last-modified']).toBe(lastModified);
    await http().get(`${BASE}/events/${id}`).set('If-Modified-Since', lastModified).expect(304);
    const before = new Date(Date.parse(lastModified) - 60_000).toUTCString();
    await http().get(`${BASE}/events/${id}`).set('If-Modified-Since', before).expect(200);
  });

  it('a write changes the ETag', async () => {
    const url = `${BASE}/events/${id}`;
    const etag = (await http().get(url).expect(200)).headers.etag;
    await http()
      .post(url)
      .set('Authorization', users.editor.header)
      .send({ title: 'Concert, renamed' })
      .expect(200);
    const after = await http().get(url).set('If-None-Match', etag).expect(200);
    expect(after.headers.etag).not.toBe(etag);
  });

  it('authenticated answers are private, password answers are never stored', async () => {
    const auth = await http()
      .get(`${BASE}/events/${id}`)
      .set('Authorization', users.editor.header)
      .expect(200);
    expect(auth.headers['cache-control']).toBe('private, no-cache');
    expect(auth.headers.vary).toMatch(/Authorization/);
    const unlocked = await http().get(`${BASE}/events/${secret}?password=pw`).expect(200);
    expect(unlocked.headers['cache-control']).toBe('private, no-store');
    expect(JSON.stringify(unlocked.body)).toContain('hidden words');
    const locked = await http().get(`${BASE}/events/${secret}`).expect(403);
    expect(JSON.stringify(locked.body)).not.toContain('hidden words');
  });

  it('errors carry no ETag-based 304', async () => {
    const missing = await http().get(`${BASE}/events/999999`).expect(404);
    await http()
      .get(`${BASE}/events/999999`)
      .set('If-None-Match', missing.headers.etag ?? '"x"')
      .expect(404);
  });

  it('the health check is never stored', async () => {
    const res = await http().get('/health');
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
