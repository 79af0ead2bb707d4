import type { ApplicationPasswordRow } from '../auth/users/users.repository.js';
import type { UserRecord } from '../auth/users/users.service.js';
import type { Role } from '../common/roles.js';

/** A user as `/users` answers it: WordPress's `/wp/v2/users` fields (context `edit`) that apply. */
export interface WpUser {
  id: number;
  username: string;
  name: string;
  email: string;
  roles: Role[];
  /** ISO 8601, UTC (WordPress's `registered_date`). */
  registered_date: string;
  /** Whether the user has a console password (ours: WordPress has one password per user). */
  has_console_password: boolean;
}

/** An application password as WordPress's `/users/{id}/application-passwords` answers it. */
export interface WpApplicationPassword {
  uuid: string;
  app_id: string;
  name: string;
  /** ISO 8601, UTC. */
  created: string;
  /** Not recorded here (CONTRACT §2 "Users"): always null. */
  last_used: null;
  last_ip: null;
  /** The password itself, in the create answer only. */
  password?: string;
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) → ISO 8601 with its offset, as WordPress's `registered_date`. */
const isoOf = (utc: string) => `${utc.replace(' ', 'T')}+00:00`;

export const toWpUser = (u: UserRecord): WpUser => ({
  id: u.id,
  username: u.login,
  name: u.display_name,
  email: u.email,
  roles: [u.role],
  registered_date: isoOf(u.registered),
  has_console_password: u.hasConsolePassword,
});

export const toWpApplicationPassword = (p: ApplicationPasswordRow): WpApplicationPassword => ({
  uuid: p.uuid,
  app_id: '',
  name: p.name,
  created: new Date(p.createdAt).toISOString(),
  last_used: null,
  last_ip: null,
});
