import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { ANONYMOUS, type Actor } from './actor.js';

export interface AuthRequest extends Request {
  actor?: Actor;
}

/** The caller of this request (`ANONYMOUS` without credentials). */
export const Auth = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor =>
    ctx.switchToHttp().getRequest<AuthRequest>().actor ?? ANONYMOUS,
);
