import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { ApiError } from '../common/errors/api-error.js';
import { ANONYMOUS, type AuthRequest } from '../common/actor.js';
import { DatabaseMonitor } from '../database/database-monitor.js';
import { LoginThrottle } from './login-throttle.js';
import { Sessions } from './sessions.js';
import { UsersService } from './users/users.service.js';

/**
 * Authenticates only: HTTP Basic with a login and application password → that user; another
 * `Authorization` → 401 on every route, public GETs included (as WordPress does). Without the
 * header, the console's session cookie with its `X-WP-Nonce` → that user (sessions.ts: without
 * the nonce the cookie is ignored); nothing → anonymous. Capabilities are checked by services,
 * after parameter validation.
 */
@Injectable()
export class BasicAuthGuard implements CanActivate {
  constructor(
    private readonly users: UsersService,
    private readonly throttle: LoginThrottle,
    private readonly monitor: DatabaseMonitor,
    private readonly sessions: Sessions,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<AuthRequest>();
    const header = req.headers.authorization;
    if (!header) {
      req.actor = (await this.monitor.guard(this.sessions.actor(req))) ?? ANONYMOUS;
      return true;
    }
    const credentials = parseBasic(header);
    // Another scheme or a malformed header carries no password to guess: 401 at once, uncounted.
    if (!credentials) throw new ApiError('incorrect_password', 401);
    // req.ip follows TRUST_PROXY: X-Forwarded-For only counts when it comes from a trusted proxy.
    const attempt = await this.throttle.begin(
      req.ip ?? req.socket.remoteAddress,
      credentials.login,
      credentials.password,
    );
    let user: Awaited<ReturnType<UsersService['authenticate']>>;
    try {
      user = await this.monitor.guard(
        this.users.authenticate(credentials.login, credentials.password),
      );
    } catch (error) {
      attempt.abandon();
      throw error;
    }
    if (!user) {
      await attempt.failed();
      // One answer for an unknown login and a wrong password: no user enumeration (CONTRACT §6).
      throw new ApiError('incorrect_password', 401);
    }
    await attempt.succeeded();
    req.actor = { user: { id: user.id, login: user.login, role: user.role } };
    return true;
  }
}

function parseBasic(header: string): { login: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
