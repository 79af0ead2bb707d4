import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import { ANONYMOUS, type Actor } from '../common/actor.js';
import { ApiError, t } from '../common/errors/api-error.js';
import { NONCE_HEADER } from '../common/http/credentials.js';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { LoginThrottle } from './login-throttle.js';
import { UsersRepository, type SessionUser } from './users/users.repository.js';
import { UsersService } from './users/users.service.js';

/** The session cookie of the editors' console (WordPress's `wordpress_logged_in_…`). */
const SESSION_COOKIE = 'cal_session';
/** WordPress's `auth_cookie_expiration` without "Remember me": two days. */
const SESSION_LIFETIME_MS = 2 * 86_400_000;

/** 32 random bytes in base64url: 43 characters. Anything else in the cookie opens nothing. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** What a login or the session route answers: the user, and the nonce to send with the cookie. */
export interface SessionAnswer {
  user: SessionUser;
  nonce: string;
  /** When the session ends (ISO 8601, UTC). */
  expires: string;
}

/**
 * The console's sessions (CONTRACT §2), as WordPress's cookie authentication: a login with a
 * console password sets an HttpOnly, SameSite=Strict cookie (Secure over HTTPS) holding a random
 * token, of which the database keeps a SHA-256; the REST API counts the cookie only together with
 * the nonce derived from it (`X-WP-Nonce`), which a page of another site can neither read nor
 * compute, so a cookie alone is anonymous and a cross-site form cannot write.
 */
@Injectable()
export class Sessions {
  constructor(
    private readonly users: UsersService,
    private readonly rows: UsersRepository,
    private readonly throttle: LoginThrottle,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Logs `login` in with its console password, throttled as HTTP Basic logins are (the same
   * counters), and sets the cookie. Wrong or unknown: 401 `incorrect_password`, one answer.
   */
  async login(req: Request, res: Response, login: string, password: string) {
    const attempt = await this.throttle.begin(req.ip ?? req.socket.remoteAddress, login, password);
    let user: Awaited<ReturnType<UsersService['authenticateLogin']>>;
    try {
      user = await this.users.authenticateLogin(login, password);
    } catch (error) {
      attempt.abandon();
      throw error;
    }
    if (!user) {
      await attempt.failed();
      throw new ApiError('incorrect_password', 401, {}, t('errors.incorrect_login'));
    }
    await attempt.succeeded();
    const token = randomBytes(32).toString('base64url');
    const now = Date.now();
    const expires = now + SESSION_LIFETIME_MS;
    await this.rows.insertSession(tokenHash(token), user.id, now, expires);
    res.cookie(SESSION_COOKIE, token, { ...this.cookieOptions(req), expires: new Date(expires) });
    return this.answer({ id: user.id, login: user.login, role: user.role }, token, expires);
  }

  /** The session the request's cookie opens, with its nonce (the console's page reload). */
  async current(req: Request): Promise<SessionAnswer> {
    const token = sessionToken(req);
    const found = token ? await this.live(token) : null;
    if (!token || !found) throw new ApiError('rest_not_logged_in', 401);
    return this.answer(found.user, token, found.expires);
  }

  /**
   * Ends the request's session and clears the cookie: with a session cookie, only together with
   * its nonce (403 `rest_cookie_invalid_nonce`), so that no other site can log anyone out.
   */
  async logout(req: Request, res: Response): Promise<{ logged_out: true }> {
    const token = sessionToken(req);
    if (token) {
      checkNonce(req, token);
      await this.rows.deleteSession(tokenHash(token));
    }
    res.clearCookie(SESSION_COOKIE, this.cookieOptions(req));
    return { logged_out: true };
  }

  /**
   * The guard's part: the actor of a request with the session cookie. Without `X-WP-Nonce` the
   * cookie is ignored (anonymous); a nonce that is not the cookie's is 403
   * `rest_cookie_invalid_nonce`; a session logged out or past its time is 401
   * `rest_not_logged_in`. Undefined: the request has no session cookie.
   */
  async actor(req: Request): Promise<Actor | undefined> {
    const token = sessionToken(req);
    if (!token) return undefined;
    const nonce = req.headers[NONCE_HEADER];
    if (typeof nonce !== 'string' || nonce === '') return ANONYMOUS;
    checkNonce(req, token);
    const found = await this.live(token);
    if (!found) throw new ApiError('rest_not_logged_in', 401);
    return { user: found.user };
  }

  private async live(token: string) {
    const now = Date.now();
    const found = await this.rows.sessionUser(tokenHash(token), now);
    return found ? { user: found, expires: found.expiresAt } : null;
  }

  private answer(user: SessionUser, token: string, expires: number): SessionAnswer {
    return {
      user: { id: user.id, login: user.login, role: user.role },
      nonce: nonceOf(token),
      expires: new Date(expires).toISOString(),
    };
  }

  private cookieOptions(req: Request) {
    return {
      httpOnly: true,
      sameSite: 'strict' as const,
      secure: req.secure || this.config.siteUrl.startsWith('https:'),
      path: '/',
    };
  }
}

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

/** The nonce of a session: only who holds the token (the cookie) can compute it. */
const nonceOf = (token: string) =>
  createHmac('sha256', token).update('wp_rest').digest('base64url').slice(0, 24);

/** 403 `rest_cookie_invalid_nonce` unless the request's `X-WP-Nonce` is the nonce of `token`. */
function checkNonce(req: Request, token: string): void {
  const nonce = req.headers[NONCE_HEADER];
  const given = Buffer.from(typeof nonce === 'string' ? nonce : '');
  const expected = Buffer.from(nonceOf(token));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError('rest_cookie_invalid_nonce', 403);
  }
}

/** The session token of the request's `Cookie` header, if it holds a well-formed one. */
function sessionToken(req: Request): string | undefined {
  const header = req.headers.cookie;
  if (typeof header !== 'string' || header.length > 16_384) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}
