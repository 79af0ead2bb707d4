import type { Role } from './users/roles.js';

/** Who is calling: a user with a role, or nobody (anonymous). Attached by BasicAuthGuard. */
export interface Actor {
  user: { id: number; login: string; role: Role } | null;
}

export const ANONYMOUS: Actor = Object.freeze({ user: null });
