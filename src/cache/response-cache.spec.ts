import { ResponseCache } from './response-cache.js';
import { WriteVersion } from './write-version.js';

describe('ResponseCache.same', () => {
  const entry = (text: string) => ({
    body: Buffer.from(text),
    gzip: Buffer.from(`gzip of ${text}`),
    headers: [] as Array<[string, string]>,
  });

  it('gives back the stored bytes and gzip copy of an answer computed again with the same bytes', () => {
    const versions = new WriteVersion();
    const cache = new ResponseCache({ responseCacheTtlMs: 1_000 }, versions);
    const first = entry('{"events":[]}');
    cache.set('GET /events', cache.version(), first, undefined, 0);
    // Expired: not served, but kept to compare with.
    expect(cache.get('GET /events', 5_000)).toBeUndefined();
    const same = cache.same('GET /events', Buffer.from('{"events":[]}'));
    expect(same?.body).toBe(first.body);
    expect(same?.gzip).toBe(first.gzip);
    expect(cache.same('GET /events', Buffer.from('{"events":[1]}'))).toBeUndefined();
    expect(cache.same('GET /other', Buffer.from('{"events":[]}'))).toBeUndefined();
  });

  it('compares with an answer made stale by a write too, and serves it no more', () => {
    const versions = new WriteVersion();
    const cache = new ResponseCache({ responseCacheTtlMs: 1_000 }, versions);
    const first = entry('<html>page</html>');
    cache.set('GET /page', cache.version(), first, ['events'], 0);
    versions.bump('write', ['events']);
    expect(cache.get('GET /page', 10)).toBeUndefined();
    expect(cache.same('GET /page', Buffer.from('<html>page</html>'))?.body).toBe(first.body);
  });

  it('knows a page kept as its gzip copy alone by its ETag', () => {
    const versions = new WriteVersion();
    const cache = new ResponseCache({ responseCacheTtlMs: 1_000 }, versions);
    const page = {
      gzip: Buffer.from('gzip of the page'),
      headers: [['ETag', '"11-abc"']] as Array<[string, string]>,
    };
    cache.set('GET /event/a/', cache.version(), page, undefined, 0);
    const bytes = Buffer.from('<html>page</html>');
    expect(cache.same('GET /event/a/', bytes, '"11-abc"')?.gzip).toBe(page.gzip);
    expect(cache.same('GET /event/a/', bytes, '"11-abd"')).toBeUndefined();
    expect(cache.same('GET /event/a/', bytes)).toBeUndefined();
  });
});
