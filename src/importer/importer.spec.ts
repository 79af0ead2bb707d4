import { createServer, type Server } from 'node:http';
import { HttpClient, retryAfterMs, SourceError } from './http-client.js';
import { costEntries, eventInput, MalformedRecord, unescapeHtml } from './record-mapping.js';
import { apiLink, mapLimit, TecSource, trimSlashes } from './tec-source.js';

describe('record mapping', () => {
  it('rebuilds cost entries that give the same display cost', () => {
    const details = (symbol: string, position: string, values: string[]) => ({
      currency_symbol: symbol,
      currency_position: position,
      values,
    });
    expect(
      costEntries({ cost: '$10 – $20', cost_details: details('$', 'prefix', ['10', '20']) }),
    ).toEqual(['$10', '$20']);
    expect(costEntries({ cost: '20€', cost_details: details('€', 'postfix', ['20']) })).toEqual([
      '20€',
    ]);
    expect(costEntries({ cost: 'Free', cost_details: details('', '', ['free']) })).toEqual([
      'Free',
    ]);
    expect(costEntries({ cost: '', cost_details: details('', '', []) })).toEqual([]);
  });

  it('undoes the HTML escaping of URLs, and only that', () => {
    expect(unescapeHtml('https://x.example/?a=1&amp;b=2&#038;c=&quot;3&quot;')).toBe(
      'https://x.example/?a=1&b=2&c="3"',
    );
    expect(unescapeHtml('&amp;amp; &copy;')).toBe('&amp; &copy;');
  });

  it('refuses an event without dates or with unreadable references', () => {
    const ref = () => 1;
    const base = { title: 'T', start_date: '2026-01-01 10:00:00', end_date: '2026-01-01 11:00:00' };
    expect(() => eventInput({ ...base, start_date: 'soon' }, ref)).toThrow(MalformedRecord);
    expect(() => eventInput({ ...base, title: undefined }, ref)).toThrow('no title');
    expect(() => eventInput({ ...base, categories: [{ name: 'no id' }] }, ref)).toThrow(
      'a category has no id',
    );
    expect(
      eventInput({ ...base, website: 'http://s/e/', url: 'http://s/e/' }, ref),
    ).not.toHaveProperty('website');
  });
});

describe('TecSource.key', () => {
  const key = (root: string) => new TecSource(root, undefined as never, []).key;

  it('names one calendar the same whichever namespace or address form reached it', () => {
    const site = 'https://cal.example.org events/v1';
    for (const root of [
      'https://cal.example.org/wp-json/tribe/events/v1',
      'https://cal.example.org/wp-json/tribe/events/v1/',
      'https://cal.example.org/cal/events/v1',
      'https://cal.example.org/wp-json/cal/events/v1',
      'https://cal.example.org/?rest_route=/tribe/events/v1',
      'https://cal.example.org/index.php?rest_route=/tribe/events/v1',
    ]) {
      expect(key(root)).toBe(site);
    }
    expect(key('https://cal.example.org/sub/wp-json/tribe/events/v1')).toBe(
      'https://cal.example.org/sub events/v1',
    );
    expect(key('https://other.example.org/wp-json/tribe/events/v1')).not.toBe(site);
  });
});

describe('discovery helpers', () => {
  it('reads the REST index address from a Link header', () => {
    expect(apiLink('<https://s.example/wp-json/>; rel="https://api.w.org/"')).toBe(
      'https://s.example/wp-json/',
    );
    expect(
      apiLink(
        '<https://s.example/?p=1>; rel=shortlink, <https://s.example/wp-json/>; rel="https://api.w.org/"',
      ),
    ).toBe('https://s.example/wp-json/');
    expect(apiLink('<https://s.example/?p=1>; rel=shortlink')).toBeNull();
    expect(apiLink(null)).toBeNull();
  });

  it('trims trailing slashes without a backtracking pattern', () => {
    expect(trimSlashes('https://s.example/wp-json///')).toBe('https://s.example/wp-json');
    expect(trimSlashes('/'.repeat(100_000) + 'x')).toHaveLength(100_001);
  });

  it('bounds concurrency and keeps the order of results', async () => {
    let running = 0;
    let most = 0;
    const results = await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running++;
      most = Math.max(most, running);
      await new Promise((resolve) => setTimeout(resolve, 5));
      running--;
      return n * 2;
    });
    expect(results).toEqual([2, 4, 6, 8, 10, 12, 14]);
    expect(most).toBe(3);
  });
});

describe('HttpClient', () => {
  let server: Server;
  let base: string;
  let answers: Array<[number, Record<string, string>]> = [];
  const agents: string[] = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      agents.push(String(req.headers['user-agent']));
      const [status, headers] = answers.shift() ?? [200, {}];
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify({ status }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('retries 429 and 5xx with growing waits, honouring Retry-After', async () => {
    const waits: number[] = [];
    const client = new HttpClient({ sleep: async (ms) => void waits.push(ms), backoffMs: 100 });
    answers = [
      [503, {}],
      [502, {}],
      [429, { 'Retry-After': '3' }],
      [200, {}],
    ];
    const { body } = await client.json(`${base}/x`);
    expect(body).toEqual({ status: 200 });
    expect(waits).toHaveLength(3);
    expect(waits[0]).toBeGreaterThanOrEqual(100);
    expect(waits[0]).toBeLessThan(150);
    expect(waits[1]).toBeGreaterThanOrEqual(200);
    expect(waits[2]).toBe(3000);
    expect(client.retries).toBe(3);
    expect(agents.at(-1)).toMatch(/^cal-events-importer\//);
  });

  it('answers a 404 at once, and gives up after its attempts', async () => {
    const client = new HttpClient({ sleep: async () => undefined, attempts: 3 });
    answers = [[404, {}]];
    expect((await client.get(`${base}/y`)).status).toBe(404);
    expect(client.requests).toBe(1);
    answers = [
      [500, {}],
      [500, {}],
      [500, {}],
    ];
    await expect(client.get(`${base}/z`)).rejects.toThrow(SourceError);
    await expect(
      new HttpClient({ sleep: async () => undefined, attempts: 1 }).get('http://127.0.0.1:1/'),
    ).rejects.toThrow(/gave up after 1 attempt\b/);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('5')).toBe(5000);
    expect(
      retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1)),
    ).toBe(10_000);
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs(null)).toBeNull();
  });
});
