import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

/**
 * What may open password-protected records in a response (BEHAVIOR §4.11): the undeclared
 * `password` parameter (query string, or a body — WordPress reads bodies on DELETE too) and
 * `context=edit` for records the caller may edit.
 */
export interface Unlock {
  password?: string;
  edit: boolean;
}

export function unlockOf(query: unknown, body?: unknown): Unlock {
  const q = (query ?? {}) as Record<string, unknown>;
  const b = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
  const password = [b.password, q.password].find((p) => typeof p === 'string' && p !== '');
  const context = b.context ?? q.context;
  return { password: password as string | undefined, edit: context === 'edit' };
}

/** `@UnlockParams() unlock: Unlock` in a read or delete handler. */
export const UnlockParams = createParamDecorator((_: unknown, ctx: ExecutionContext): Unlock => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return unlockOf(req.query, req.method === 'DELETE' ? req.body : undefined);
});
