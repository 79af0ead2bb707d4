import type { INestApplication } from '@nestjs/common';
import request from 'supertest';

/** A payload or JSON-LD object as the public-page specs read it, field by field. */
// oxlint-disable-next-line typescript/no-explicit-any
export type Tec = Record<string, any>;

/** The JSON-LD objects of a page. */
export function jsonLd(html: string): Tec[] {
  const out: Tec[] = [];
  const re = /<script type="application\/ld\+json">([^<]*)<\/script>/g;
  for (let m = re.exec(html); m; m = re.exec(html)) out.push(JSON.parse(m[1]) as Tec);
  return out;
}

/**
 * The public-page specs' seeding: `post(key, body)` publishes an event as the editor (whose
 * Authorization header `editor` gives) and keeps its answer in `made[key]`.
 */
export function eventPublisher(app: () => INestApplication, editor: () => string) {
  const made: Record<string, Tec> = {};
  const post = async (key: string, body: Record<string, unknown>) => {
    const res = await request(app().getHttpServer())
      .post('/cal/events/v1/events')
      .set('Authorization', editor())
      .send({ status: 'publish', ...body });
    expect(res.status).toBe(201);
    made[key] = res.body as Tec;
    return made[key];
  };
  return { made, post };
}
