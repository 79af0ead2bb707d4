import { gunzipSync } from 'node:zlib';
import { gzipped, gzippedOnce } from './compression.js';

describe('gzip copies', () => {
  const page = Buffer.from(
    `<!doctype html><main>${'<p>Árvíztűrő tükörfúrógép</p>'.repeat(200)}</main>`,
  );

  it('a kept copy holds memory of its own, not a slice of zlib’s larger block', () => {
    const kept = gzipped(page);
    expect(gunzipSync(kept).equals(page)).toBe(true);
    expect(kept.length).toBeLessThan(page.length);
    expect(kept.buffer.byteLength).toBe(kept.length);
    expect(kept.byteOffset).toBe(0);
  });

  it('a copy sent once decompresses to the same bytes', () => {
    expect(gunzipSync(gzippedOnce(page)).equals(page)).toBe(true);
  });
});
