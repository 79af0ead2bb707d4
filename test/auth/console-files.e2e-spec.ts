import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { CONSOLE_DIR } from '../../src/config/paths.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { needs } from '../helpers/services.js';

/**
 * The editors' console's files (issue 51), as `npm run build` leaves them in dist/admin/: served
 * under every language prefix and outside BASE_PATH, under the server's CSP, the page told its
 * language, the assets cached for good and sent compressed; the first load within 600 KB.
 */
const BUILT = existsSync(join(CONSOLE_DIR, 'index.html'));
/** The budget for the first load (the login screen), as transferred. */
const FIRST_LOAD_BYTES = 600 * 1024;

describe('the console files (e2e)', () => {
  needs('the built console (npm run build)', () => BUILT);
  let app: NestExpressApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    if (BUILT) app = await createTestApp({ env: { BASE_PATH: '/api' } });
  });
  afterAll(() => (BUILT ? closeApp(app) : undefined));

  it.each([
    ['/admin', '/admin/'],
    ['/hu/admin', '/hu/admin/'],
    ['/ro/admin?x=1', '/ro/admin/?x=1'],
  ])('%s moves to %s, where the page names its assets', async (from, to) => {
    const res = await http().get(from).expect(301);
    expect(res.headers.location).toBe(to);
  });

  it.each([
    ['/admin/', 'en'],
    ['/hu/admin/', 'hu'],
    ['/ro/admin/', 'ro'],
  ])('%s is the page in %s, under the CSP, revalidated', async (path, lang) => {
    const res = await http().get(path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toContain(`<html lang="${lang}">`);
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
  });

  it('sends each asset compressed as the browser accepts, cached for good; the first load fits 600 KB', async () => {
    const page = await http().get('/hu/admin/').expect(200);
    const assets = [...page.text.matchAll(/(?:src|href)="\.\/(assets\/[^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    let transferred = Buffer.byteLength(page.text);
    for (const asset of assets) {
      // The client decompresses the body: its size on the wire is Content-Length.
      const br = await http()
        .get(`/hu/admin/${asset}`)
        .set('Accept-Encoding', 'br, gzip')
        .expect(200);
      const wire = Number(br.headers['content-length']);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toContain('Accept-Encoding');
      transferred += wire;
      const plain = await http().get(`/admin/${asset}`).set('Accept-Encoding', 'identity');
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBeGreaterThan(2 * wire);
    }
    expect(transferred).toBeLessThanOrEqual(FIRST_LOAD_BYTES);
  });

  it('answers 404 for a file the build did not write, in the error shape', async () => {
    for (const path of [
      '/admin/assets/nope.js',
      '/admin/assets/..%2Fmain.js',
      '/admin/index.html',
    ]) {
      const res = await http().get(path).expect(404);
      expect(res.body.code).toBe('rest_no_route');
    }
  });
});
