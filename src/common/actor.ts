import type { Request } from 'express';
import type { Role } from './roles.js';

/** Who is calling: a user with a role, or nobody (anonymous). Attached by BasicAuthGuard. */
export interface Actor {
  user: { id: number; login: string; role: Role } | null;
}

export const ANONYMOUS: Actor = Object.freeze({ user: null });

/** A request once BasicAuthGuard has looked at its credentials. */
export interface AuthRequest extends Request {
  actor?: Actor;
}
