import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { UsersService } from '../../src/auth/users/users.service.js';
import { basic, createRoleUsers, type RoleUsers } from '../helpers/auth.js';
import { closeApp, createTestApp } from '../helpers/create-test-app.js';
import { wpError } from '../helpers/wp-error.js';

/**
 * The login throttle with its default limits (CONTRACT §2, README "Configuration"): per login and
 * address 10 failures / 15 min, per address 50, per login across addresses 30, addresses trusted
 * for a login for 30 days after it authenticated from them. Regressions of the security probe.
 */
const ROOT = '/cal/events/v1';

const TOO_MANY = wpError(
  429,
  'rest_too_many_requests',
  'Too many requests. Please wait a moment and try again.',
);

describe('login throttle (e2e)', () => {
  describe('clients connecting directly (TRUST_PROXY unset)', () => {
    let app: NestExpressApplication;
    let users: RoleUsers;
    const get = (authorization: string, forwardedFor?: string) => {
      const req = request(app.getHttpServer()).get(ROOT).set('Authorization', authorization);
      return forwardedFor ? req.set('X-Forwarded-For', forwardedFor) : req;
    };

    beforeAll(async () => {
      app = await createTestApp();
      users = await createRoleUsers(app);
    });
    afterAll(() => closeApp(app));

    it('does not lock valid users out of an address after failures with made-up logins', async () => {
      for (let i = 0; i < 11; i++) await get(basic(`made-up-${i}`, 'guess')).expect(401);
      await get(users.editor.header).expect(200);
      await get(users.administrator.header).expect(200);
    });

    it('answers an unknown login and a wrong password with byte-identical bodies', async () => {
      const unknown = await get(basic('nobody-here', 'guess')).expect(401);
      const wrong = await get(basic('editor', 'guess')).expect(401);
      expect(unknown.text).toBe(wrong.text);
      expect(unknown.headers['content-type']).toBe(wrong.headers['content-type']);
      expect(JSON.parse(unknown.text)).toEqual(
        wpError(401, 'incorrect_password', expect.any(String)),
      );
    });

    it('ignores a spoofed X-Forwarded-For: rotating it does not escape the limit', async () => {
      for (let i = 0; i < 10; i++) {
        await get(basic('author', `wrong-${i}`), `198.51.100.${i}`).expect(401);
      }
      const blocked = await get(users.author.header, '198.51.100.99').expect(429);
      expect(blocked.body).toEqual(TOO_MANY);
      const retryAfter = Number(blocked.headers['retry-after']);
      expect(retryAfter).toBeGreaterThan(14 * 60);
      expect(retryAfter).toBeLessThanOrEqual(15 * 60);
      // Other logins from the same address are not blocked by it.
      await get(users.contributor.header, '198.51.100.99').expect(200);
    });

    it('does not count headers that carry no Basic credentials', async () => {
      for (const header of ['Bearer abc', 'Basic', 'Basic !!!', `Basic ${btoa('no-colon')}`]) {
        for (let i = 0; i < 15; i++) await get(header).expect(401);
      }
      // 60 more failures from this address would have passed the per-address limit (50).
      await get(users.subscriber.header).expect(200);
    });

    it('answers 429 in the language of the request', async () => {
      const res = await request(app.getHttpServer())
        .get(`/hu${ROOT}`)
        .set('Authorization', users.author.header)
        .expect(429);
      expect(res.body.message).toBe('Túl sok kérés. Várj egy kicsit, és próbáld újra.');
    });
  });

  describe('behind a trusted proxy (TRUST_PROXY=loopback)', () => {
    let app: NestExpressApplication;
    let users: RoleUsers;
    let verifications: import('vitest').MockInstance;
    const get = (authorization: string, forwardedFor: string) =>
      request(app.getHttpServer())
        .get(ROOT)
        .set('Authorization', authorization)
        .set('X-Forwarded-For', forwardedFor);

    beforeAll(async () => {
      // A smaller per-address limit than the default 50 keeps the spraying test short (each
      // failure costs a scrypt run); the other limits are the defaults.
      app = await createTestApp({
        env: { TRUST_PROXY: 'loopback', LOGIN_FAILURES_PER_ADDRESS: '20/15m' },
      });
      users = await createRoleUsers(app);
      verifications = vi.spyOn(app.get(UsersService), 'authenticate');
    });
    afterAll(() => closeApp(app));

    it('takes the client address from X-Forwarded-For', async () => {
      for (let i = 0; i < 10; i++) await get(basic('author', `wrong-${i}`), '10.0.0.1').expect(401);
      await get(users.author.header, '10.0.0.1').expect(429);
      await get(users.author.header, '10.0.0.2').expect(200);
      // The address the proxy saw the request come from: the last untrusted hop.
      await get(users.author.header, '10.0.0.1, 10.0.0.3').expect(200);
      await get(users.author.header, '10.0.0.3, 10.0.0.1').expect(429);
    });

    it('counts variants of a login (case, whitespace) as that login', async () => {
      const variants = ['editor', 'EDITOR', ' Editor', 'editor  ', 'eDiToR'];
      for (let i = 0; i < 10; i++) {
        await get(basic(variants[i % variants.length], `wrong-${i}`), '10.0.1.1').expect(401);
      }
      await get(users.editor.header, '10.0.1.1').expect(429);
    });

    it('slows down guessing of one login spread over many addresses, but not its owner', async () => {
      // The owner has used the API from this address before the attack.
      await get(users.administrator.header, '192.0.2.10').expect(200);
      verifications.mockClear();
      const statuses: number[] = [];
      for (let i = 0; i < 400; i++) {
        const res = await get(basic('administrator', `guess-${i}`), `203.0.113.${i % 45}`);
        statuses.push(res.status);
      }
      const count = (s: number) => statuses.filter((x) => x === s).length;
      expect(count(401)).toBe(30);
      expect(count(429)).toBe(370);
      expect(count(401) + count(429)).toBe(400);
      // Blocked guesses are refused before the password is looked at.
      expect(verifications).toHaveBeenCalledTimes(30);
      // The owner, from the address it authenticated from, is not locked out...
      await get(users.administrator.header, '192.0.2.10').expect(200);
      // ...while a new address has to wait, even with the right password.
      const fresh = await get(users.administrator.header, '192.0.2.11').expect(429);
      expect(fresh.body).toEqual(TOO_MANY);
      // Other logins are not affected.
      await get(users.contributor.header, '203.0.113.1').expect(200);
    });

    it('limits password spraying from one address, except for logins that succeeded there', async () => {
      await get(users.subscriber.header, '10.2.0.1').expect(200);
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) {
        statuses.push((await get(basic(`user-${i}`, 'Summer2024!'), '10.2.0.1')).status);
      }
      expect(statuses).toEqual([...Array<number>(20).fill(401), ...Array<number>(5).fill(429)]);
      await get(users.contributor.header, '10.2.0.1').expect(429);
      await get(users.subscriber.header, '10.2.0.1').expect(200);
      await get(users.contributor.header, '10.2.0.2').expect(200);
    });

    it('counts an IPv6 client as its /64', async () => {
      for (let i = 0; i < 10; i++) {
        await get(basic('contributor', `wrong-${i}`), `2001:db8:5:6::${i + 1}`).expect(401);
      }
      await get(users.contributor.header, '2001:db8:5:6:ffff:1:2:3').expect(429);
      await get(users.contributor.header, '2001:db8:5:7::1').expect(200);
    });
  });
});
