import type { AppConfig } from '../config/config.js';
import { LoginThrottle } from './login-throttle.js';
import { ApiError } from '../common/errors/api-error.js';

const MINUTE = 60_000;
const config = {
  loginThrottle: {
    perLoginAndAddress: { max: 3, windowMs: 10 * MINUTE },
    perAddress: { max: 5, windowMs: 10 * MINUTE },
    perLogin: { max: 4, windowMs: 10 * MINUTE },
    trustedForMs: 60 * MINUTE,
  },
} as AppConfig;

describe('LoginThrottle', () => {
  let now: number;
  let throttle: LoginThrottle;
  beforeEach(() => {
    now = 1_000_000;
    throttle = new LoginThrottle(config, undefined, () => now);
  });

  const fail = async (ip: string, login: string) =>
    (await throttle.begin(ip, login, 'guess')).failed();
  const succeed = async (ip: string, login: string) =>
    (await throttle.begin(ip, login, 'right')).succeeded();
  /** The Retry-After (seconds) of a blocked attempt, or null when it may go ahead. */
  const blocked = async (ip: string, login: string): Promise<number | null> => {
    try {
      (await throttle.begin(ip, login, 'probe')).abandon();
      return null;
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).status).toBe(429);
      return Number((error as ApiError).headers['Retry-After']);
    }
  };

  it('blocks one login from one address after its failures, for the rest of the window', async () => {
    for (let i = 0; i < 3; i++) await fail('198.51.100.1', 'alice');
    now += 4 * MINUTE;
    expect(await blocked('198.51.100.1', 'alice')).toBe(6 * 60);
    // Variants of the login are the same login.
    expect(await blocked('198.51.100.1', ' ALICE ')).toBe(6 * 60);
    // Other logins from that address, and that login from elsewhere, go ahead.
    expect(await blocked('198.51.100.1', 'bob')).toBeNull();
    expect(await blocked('198.51.100.2', 'alice')).toBeNull();
    now += 6 * MINUTE;
    expect(await blocked('198.51.100.1', 'alice')).toBeNull();
  });

  it('limits spraying from one address, except for logins that succeeded there', async () => {
    await succeed('198.51.100.1', 'owner');
    for (let i = 0; i < 5; i++) await fail('198.51.100.1', `made-up-${i}`);
    expect(await blocked('198.51.100.1', 'someone-else')).toBeGreaterThan(0);
    expect(await blocked('198.51.100.1', 'owner')).toBeNull();
    // An IPv6 client is its /64.
    for (let i = 0; i < 5; i++) await fail(`2001:db8:0:1::${i + 1}`, `made-up-${i}`);
    expect(await blocked('2001:db8:0:1:ffff::9', 'x')).toBeGreaterThan(0);
    expect(await blocked('2001:db8:0:2::1', 'x')).toBeNull();
  });

  it('limits guessing of one login across addresses, except from addresses it succeeded from', async () => {
    await succeed('198.51.100.1', 'alice');
    for (let i = 0; i < 4; i++) await fail(`203.0.113.${i}`, 'alice');
    expect(await blocked('203.0.113.200', 'alice')).toBeGreaterThan(0);
    expect(await blocked('198.51.100.1', 'alice')).toBeNull();
    expect(await blocked('203.0.113.200', 'bob')).toBeNull();
  });

  it('forgets trust after LOGIN_TRUSTED_FOR, and renews it with later successes', async () => {
    await succeed('198.51.100.1', 'alice');
    now += 40 * MINUTE;
    await succeed('198.51.100.1', 'alice');
    now += 40 * MINUTE;
    for (let i = 0; i < 4; i++) await fail(`203.0.113.${i}`, 'alice');
    // 80 minutes after the first success, 40 after the renewal: still trusted.
    expect(await blocked('198.51.100.1', 'alice')).toBeNull();
    now += 30 * MINUTE;
    for (let i = 0; i < 4; i++) await fail(`203.0.113.${i}`, 'alice');
    expect(await blocked('198.51.100.1', 'alice')).toBeGreaterThan(0);
  });

  it('clears the failures of a login and address when it succeeds', async () => {
    for (let i = 0; i < 2; i++) await fail('198.51.100.1', 'alice');
    await succeed('198.51.100.1', 'alice');
    for (let i = 0; i < 2; i++) await fail('198.51.100.1', 'alice');
    expect(await blocked('198.51.100.1', 'alice')).toBeNull();
    await fail('198.51.100.1', 'alice');
    expect(await blocked('198.51.100.1', 'alice')).toBeGreaterThan(0);
  });

  it('counts verifications in progress, so parallel guesses are not all let through', async () => {
    const attempts = [];
    for (let i = 0; i < 4; i++) {
      attempts.push(await throttle.begin(`203.0.113.${i}`, 'alice', `guess-${i}`));
    }
    expect(await blocked('203.0.113.100', 'alice')).toBe(1);
    attempts[0].abandon();
    attempts[0].abandon(); // settling twice counts once
    expect(await blocked('203.0.113.100', 'alice')).toBeNull();
    await attempts[1].succeeded();
    await attempts[2].failed();
    await attempts[3].failed();
    expect(await blocked('203.0.113.100', 'alice')).toBeNull();
  });

  it('counts parallel requests with one same password once (a client starting up)', async () => {
    const attempts = [];
    for (let i = 0; i < 20; i++)
      attempts.push(await throttle.begin('198.51.100.7', 'bob', 'right'));
    expect(await blocked('198.51.100.8', 'bob')).toBeNull();
    for (const attempt of attempts) await attempt.succeeded();
  });
});
