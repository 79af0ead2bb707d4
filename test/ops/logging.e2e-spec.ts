import { Logger, type LoggerService } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createLogger } from '../../src/common/http/request-logger.js';
import { AppLogger } from '../../src/common/http/app-logger.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { FAILING, FailingController } from '../helpers/failing-routes.js';

type Line = Record<string, unknown>;

/** The app with request lines and the application's own messages both captured, as main.ts logs. */
async function appLoggingTo(lines: Line[], env: Record<string, string> = {}) {
  const sink = (line: string) => lines.push(JSON.parse(line) as Line);
  const app = await createTestApp({ logSink: sink, controllers: [FailingController], env });
  app.useLogger(new AppLogger(createLogger(sink)));
  return app;
}

describe('logs (e2e)', () => {
  const previous = (Logger as unknown as { staticInstanceRef?: LoggerService }).staticInstanceRef;
  let app: NestExpressApplication | undefined;
  const lines: Line[] = [];
  afterEach(async () => {
    await closeApp(app);
    app = undefined;
    lines.length = 0;
    Logger.overrideLogger(previous ?? false);
  });

  it('writes the request line with exactly its fields, as JSON', async () => {
    app = await appLoggingTo(lines);
    await request(app.getHttpServer())
      .get('/cal/events/v1/events?per_page=1&password=hunter2')
      .set('X-Request-Id', 'log-1')
      .expect(200)
      .expect('X-Request-Id', 'log-1');
    expect(lines).toHaveLength(1);
    expect(Object.keys(lines[0])).toEqual([
      'level',
      'time',
      'reqId',
      'method',
      'url',
      'status',
      'ms',
      'user',
    ]);
    expect(lines[0]).toMatchObject({
      level: 'info',
      reqId: 'log-1',
      method: 'GET',
      url: '/cal/events/v1/events?per_page=1&password=%5Bredacted%5D',
      status: 200,
      user: null,
    });
    expect(new Date(String(lines[0].time)).toISOString()).toBe(lines[0].time);
    expect(typeof lines[0].ms).toBe('number');
  });

  it('replaces an insane incoming request id with a fresh one', async () => {
    app = await appLoggingTo(lines);
    const res = await request(app.getHttpServer())
      .get('/health')
      .set('X-Request-Id', 'bad id with spaces');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(lines[0].reqId).toBe(res.headers['x-request-id']);
  });

  it.each([
    ['boom', 500, 'secret internals at /srv/app.ts:1'],
    ['db-down', 503, 'database unavailable: connect ECONNREFUSED'],
  ])('ties the error logged for /%s to its request id', async (route, status, message) => {
    app = await appLoggingTo(lines);
    await request(app.getHttpServer())
      .get(`${FAILING}/${route}`)
      .set('X-Request-Id', `log-${route}`)
      .expect(status);
    const error = lines.find((l) => l.context === 'WpErrorFilter');
    expect(error).toMatchObject({ level: 'error', reqId: `log-${route}` });
    expect(String(error?.msg)).toContain(message);
    const requestLine = lines.find((l) => l.status === status);
    expect(requestLine).toMatchObject({ level: 'error', reqId: `log-${route}` });
  });

  it('leaves the request lines out with LOG_REQUESTS=false, but errors still name the request', async () => {
    app = await appLoggingTo(lines, { LOG_REQUESTS: 'false' });
    await request(app.getHttpServer()).get('/health').expect(200);
    expect(lines).toEqual([]);
    const res = await request(app.getHttpServer()).get(`${FAILING}/boom`).expect(500);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 'error',
      context: 'WpErrorFilter',
      reqId: res.headers['x-request-id'],
    });
  });
});
