import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { MetricsEndpoint } from '../../src/metrics/metrics-endpoint.service.js';
import { basic, createRoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { connectTestDatabase, isMysql } from '../helpers/database.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getOnce, metricNames, sampleSum } from '../helpers/prometheus.js';
import { assertBuilt, freePort, startServer, stop } from '../helpers/spawn.js';
import { resetDatabase, testDatabaseUrl } from '../helpers/database.js';

/**
 * METRICS_PORT / METRICS_HOST / METRICS_TOKEN (CONTRACT §2, docs/operations.md): the metrics are
 * served on their own listener, never on the public port, to the holder of the token, and move
 * with what the server does.
 */
const ROOT = '/cal/events/v1';
const TOKEN = 'scrape-token-for-the-test';

describe('metrics (e2e)', () => {
  describe('without METRICS_PORT', () => {
    let app: NestExpressApplication;
    beforeAll(async () => {
      app = await createTestApp();
    });
    afterAll(() => closeApp(app));

    it('listens nowhere and the public port has no /metrics', async () => {
      expect(app.get(MetricsEndpoint).port).toBeNull();
      const res = await request(app.getHttpServer()).get('/metrics').expect(404);
      expect(res.text).not.toContain('# TYPE');
    });
  });

  describe('with METRICS_PORT and METRICS_TOKEN', () => {
    let app: NestExpressApplication;
    let metricsUrl: string;
    const scrape = async () => {
      const res = await getOnce(metricsUrl, { Authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(200);
      return res.body;
    };

    beforeAll(async () => {
      app = await createTestApp({
        env: {
          METRICS_PORT: '0',
          METRICS_TOKEN: TOKEN,
          LOGIN_FAILURES_PER_LOGIN_AND_ADDRESS: '2/15m',
          // Long enough that a slow machine does not see an answer expire between two requests.
          RESPONSE_CACHE_TTL_MS: '60000',
        },
      });
      metricsUrl = `http://127.0.0.1:${app.get(MetricsEndpoint).port}/metrics`;
    });
    afterAll(() => closeApp(app));

    it('serves every metric the Grafana dashboard (docs/grafana-dashboard.json) plots', async () => {
      const dashboard = JSON.parse(
        readFileSync(join(__dirname, '..', '..', 'docs', 'grafana-dashboard.json'), 'utf8'),
      ) as { panels: Array<{ targets: Array<{ expr: string }> }> };
      const used = new Set(
        dashboard.panels
          .flatMap((p) => p.targets.map((t) => t.expr))
          .flatMap((expr) => [...expr.matchAll(/([a-z_][a-z0-9_]*)\{/g)].map((m) => m[1]))
          .map((name) => name.replace(/_(bucket|count|sum)$/, '')),
      );
      expect(used.size).toBeGreaterThan(15);
      const served = metricNames(await scrape());
      // The pools' and replicas' metrics exist only on MySQL/MariaDB (with replicas): those are
      // checked against their definitions.
      const databaseOnly = readFileSync(
        join(__dirname, '..', '..', 'src', 'database', 'database-metrics.ts'),
        'utf8',
      );
      const missing = [...used].filter(
        (name) =>
          !served.has(name) &&
          !(/^cal_db_(pool|replica)_/.test(name) && databaseOnly.includes(`'${name}'`)),
      );
      expect(missing).toEqual([]);
    });

    it('refuses the metrics to the public port', async () => {
      for (const path of ['/metrics', `${ROOT}/metrics`]) {
        const res = await request(app.getHttpServer())
          .get(path)
          .set('Authorization', `Bearer ${TOKEN}`)
          .expect(404);
        expect(res.text).not.toContain('# TYPE');
      }
    });

    it('refuses a scrape without the token or with another one (401)', async () => {
      for (const headers of [
        {},
        { Authorization: 'Bearer wrong' },
        { Authorization: TOKEN },
      ] as Array<Record<string, string>>) {
        const res = await getOnce(metricsUrl, headers);
        expect(res.status).toBe(401);
        expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
        expect(res.body).not.toContain('# TYPE');
      }
    });

    it('answers the operator in the Prometheus text format with the process metrics', async () => {
      const res = await getOnce(metricsUrl, { Authorization: `Bearer ${TOKEN}` });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.body).toContain('# TYPE process_cpu_seconds_total counter');
      expect(res.body).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
      expect(res.body).toContain('# TYPE http_request_duration_seconds histogram');
      expect((await getOnce(metricsUrl.replace('/metrics', '/other'))).status).toBe(404);
    });

    it('counts requests by route template, method and status, with their durations', async () => {
      const route = `${ROOT}/events/:id`;
      const labels = { method: 'GET', route, status: '404' };
      const before = await scrape();
      await request(app.getHttpServer()).get(`${ROOT}/events/12345`).expect(404);
      await request(app.getHttpServer()).get(`/hu${ROOT}/events/54321`).expect(404);
      const after = await scrape();
      expect(
        sampleSum(after, 'http_requests_total', labels) -
          sampleSum(before, 'http_requests_total', labels),
      ).toBe(2);
      expect(
        sampleSum(after, 'http_request_duration_seconds_count', labels) -
          sampleSum(before, 'http_request_duration_seconds_count', labels),
      ).toBe(2);
      // Never the URL itself: one series per template.
      // (Only the HTTP series: a process metric's value may hold those digits by chance.)
      const httpLines = after.split('\n').filter((line) => line.startsWith('http_'));
      expect(httpLines.join('\n')).not.toMatch(/12345|54321/);
      const unmatched = { route: 'unmatched', status: '404' };
      await request(app.getHttpServer()).get('/nowhere/at/all').expect(404);
      expect(sampleSum(await scrape(), 'http_requests_total', unmatched)).toBeGreaterThan(
        sampleSum(after, 'http_requests_total', unmatched),
      );
    });

    it('counts the response cache hits and misses and its entries', async () => {
      const hits = (text: string) =>
        sampleSum(text, 'cal_cache_hits_total', { cache: 'responses' });
      const misses = (text: string) =>
        sampleSum(text, 'cal_cache_misses_total', { cache: 'responses' });
      const before = await scrape();
      const url = `${ROOT}/events?per_page=3&metrics-test=1`;
      await request(app.getHttpServer()).get(url).expect(200);
      await request(app.getHttpServer()).get(url).expect(200);
      await request(app.getHttpServer()).get(url).expect(200);
      const after = await scrape();
      expect(misses(after) - misses(before)).toBe(1);
      expect(hits(after) - hits(before)).toBe(2);
      expect(sampleSum(after, 'cal_cache_entries', { cache: 'responses' })).toBeGreaterThan(0);
      expect(after).toContain('cal_cache_evictions_total{cache="responses"}');
    });

    it('counts the login throttle refusals by the limit reached', async () => {
      const refusals = (text: string) =>
        sampleSum(text, 'cal_login_throttle_refusals_total', { limit: 'login_and_address' });
      await createRoleUsers(app);
      const before = await scrape();
      const get = () =>
        request(app.getHttpServer()).get(ROOT).set('Authorization', basic('editor', 'wrong'));
      await get().expect(401);
      await get().expect(401);
      await get().expect(429);
      await get().expect(429);
      expect(refusals(await scrape()) - refusals(before)).toBe(2);
    });

    it('times the database statements by kind', async () => {
      const selects = (text: string) =>
        sampleSum(text, 'cal_db_query_duration_seconds_count', { kind: 'select' });
      const before = await scrape();
      await request(app.getHttpServer()).get(`${ROOT}/venues?metrics-test=2`).expect(200);
      expect(selects(await scrape())).toBeGreaterThan(selects(before));
    });

    // The pool is MySQL/MariaDB's; SQLite has one connection and no pool.
    (isMysql() ? describe : describe.skip)('the pool (MySQL/MariaDB only)', () => {
      it('counts the requests that waited for a pool connection', async () => {
        const waits = (text: string) =>
          sampleSum(text, 'cal_db_pool_waits_total', { pool: 'primary' });
        const before = await scrape();
        expect(before).toContain('cal_db_pool_connections_max{pool="primary"} 10');
        const locker = await connectTestDatabase();
        try {
          // Reads of events wait while another session holds the table: each holds a connection,
          // and the ones beyond the pool's ten queue for one.
          await locker.query('LOCK TABLES events WRITE');
          const reads = Array.from({ length: 14 }, (_, i) =>
            request(app.getHttpServer()).get(`${ROOT}/events?search=wait${i}`),
          );
          const settled = Promise.all(reads.map((r) => r.then((res) => res.status)));
          const deadline = Date.now() + 20_000;
          let during = before;
          while (waits(during) === waits(before) && Date.now() < deadline) during = await scrape();
          expect(waits(during)).toBeGreaterThan(waits(before));
          expect(sampleSum(during, 'cal_db_pool_connections_in_use', { pool: 'primary' })).toBe(10);
          await locker.query('UNLOCK TABLES');
          expect(await settled).toEqual(reads.map(() => 200));
        } finally {
          await locker.end();
        }
      });
    });
  });

  // Several workers need MySQL/MariaDB.
  (isMysql() ? describe : describe.skip)('with WORKERS=2 (MySQL/MariaDB only)', () => {
    beforeAll(assertBuilt);

    it("answers the whole server's figures: the workers' counts add up", async () => {
      await resetDatabase();
      const [port, metricsPort] = [await freePort(), await freePort()];
      const { child } = await startServer(
        {
          DATABASE_URL: testDatabaseUrl(),
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_REQUESTS: 'false',
          WORKERS: '2',
          METRICS_PORT: String(metricsPort),
          METRICS_TOKEN: TOKEN,
        },
        // Two workers start one after the other: slow on a loaded machine.
        120_000,
      );
      try {
        const labels = { method: 'GET', route: `${ROOT}/events/:id`, status: '404' };
        const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
        expect((await getOnce(metricsUrl)).status).toBe(401);
        expect((await getOnce(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
        // Each on a connection of its own: the primary hands connections to the workers in turn.
        for (let i = 0; i < 20; i++) {
          expect((await getOnce(`http://127.0.0.1:${port}${ROOT}/events/${900 + i}`)).status).toBe(
            404,
          );
        }
        const scraped = await getOnce(metricsUrl, { Authorization: `Bearer ${TOKEN}` });
        expect(scraped.status).toBe(200);
        expect(sampleSum(scraped.body, 'http_requests_total', labels)).toBe(20);
      } finally {
        await stop(child);
      }
    }, 180_000);
  });
});
