import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { postRecord } from '../helpers/app-fixture.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { coldCaches, countQueries } from '../helpers/query-counter.js';

/**
 * An event's page shows a link to each of its categories and tags (CONTRACT §7) in a fixed
 * number of queries, whatever the number of terms: they are read together, not one by one.
 */
describe('event page queries (e2e)', () => {
  let app: NestExpressApplication;
  let users: RoleUsers;
  const http = () => request(app.getHttpServer());
  const SITE = 'http://cal.test';

  beforeAll(async () => {
    app = await createTestApp();
    users = await createRoleUsers(app);
  });
  afterAll(() => closeApp(app));

  /** An event with `count` categories and `count` tags; answers the path of its page. */
  async function eventWith(count: number): Promise<string> {
    const post = (path: string, body: Record<string, unknown>) =>
      postRecord(http, users.editor.header, path, body);
    const categories: number[] = [];
    const tags: number[] = [];
    for (let i = 0; i < count; i++) {
      categories.push((await post('/categories', { name: `Category ${count}-${i}` })).id);
      tags.push((await post('/tags', { name: `Tag ${count}-${i}` })).id);
    }
    const event = await post('/events', {
      title: `With ${count} terms`,
      start_date: '2030-05-01 10:00:00',
      end_date: '2030-05-01 12:00:00',
      categories,
      tags,
    });
    return String(event.url).slice(SITE.length);
  }

  it('reads the terms of one event in as many queries as those of another with more', async () => {
    const one = await eventWith(1);
    const five = await eventWith(5);
    const queries = async (path: string) => {
      await coldCaches(app);
      let html = '';
      const count = await countQueries(app, async () => {
        html = (await http().get(path).expect(200)).text;
      });
      return { count, html };
    };
    const few = await queries(one);
    const many = await queries(five);
    expect(many.count).toBe(few.count);
    // Every term is linked, in the event's order.
    const names = [...many.html.matchAll(/>(Category|Tag) 5-(\d)</g)].map((m) => m[1] + m[2]);
    expect(names).toEqual(
      [0, 1, 2, 3, 4].map((i) => `Category${i}`).concat([0, 1, 2, 3, 4].map((i) => `Tag${i}`)),
    );
  });
});
