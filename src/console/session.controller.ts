import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IsDefined } from 'class-validator';
import type { Request, Response } from 'express';
import { IsStringType, MaxChars } from '../common/http/validators.js';
import { DatabaseMonitor } from '../database/database-monitor.js';
import { MISSING } from '../common/http/validation.js';
import { Sessions, type SessionAnswer } from '../auth/sessions.js';

/** Longer than a login (60) or a password anyone types: refused before any hashing. */
const MAX_LOGIN = 60;
const MAX_PASSWORD = 1000;

/** `POST /admin/session`: the console's login form. */
export class LoginDto {
  @IsDefined({ message: MISSING })
  @IsStringType()
  @MaxChars(MAX_LOGIN)
  login!: string;

  @IsDefined({ message: MISSING })
  @IsStringType()
  @MaxChars(MAX_PASSWORD)
  password!: string;
}

/** Where the console's session routes are; BASE_PATH does not move them (configure-app.ts). */
export const SESSION_ROUTE = 'admin/session';

/**
 * The console's login, session and logout (CONTRACT §2): WordPress's wp-login.php and its
 * `rest-nonce` answer, outside the REST namespace and its document. Every answer is personal:
 * `Cache-Control: no-store`.
 */
@ApiExcludeController()
@Controller(SESSION_ROUTE)
export class SessionController {
  constructor(
    private readonly sessions: Sessions,
    private readonly monitor: DatabaseMonitor,
  ) {}

  /** Who the session cookie is, and the nonce to send with it (401 without a live session). */
  @Get()
  current(@Req() req: Request, @Res({ passthrough: true }) res: Response): Promise<SessionAnswer> {
    res.setHeader('Cache-Control', 'no-store');
    return this.monitor.guard(this.sessions.current(req));
  }

  @Post()
  @HttpCode(200)
  login(
    @Body() body: LoginDto,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<SessionAnswer> {
    res.setHeader('Cache-Control', 'no-store');
    return this.monitor.guard(this.sessions.login(req, res, body.login, body.password));
  }

  /** Logs out: with the cookie, only together with its nonce (the guard checks it). */
  @Delete()
  logout(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    res.setHeader('Cache-Control', 'no-store');
    return this.monitor.guard(this.sessions.logout(req, res));
  }
}
