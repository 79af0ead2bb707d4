import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ANONYMOUS, type Actor, type AuthRequest } from '../common/actor.js';

/** The caller of this request (`ANONYMOUS` without credentials). */
export const Auth = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Actor =>
    ctx.switchToHttp().getRequest<AuthRequest>().actor ?? ANONYMOUS,
);
