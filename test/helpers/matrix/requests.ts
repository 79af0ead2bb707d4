/** The authorization matrix's requests: the bodies it sends, and its setup's checks. */
import { DateTime } from 'luxon';
import type request from 'supertest';
import type { Condition, Kind, Owner, Role } from './model.js';

export const API = '/cal/events/v1';
export const PASSWORD = 'mx-secret';
const TEXT = 'Matrix text';
export const TABLE: Record<Kind, string> = {
  event: 'events',
  venue: 'venues',
  organizer: 'organizers',
};
/** Requests in flight: the app is CPU-bound in this process, a few hide the database waits. */
export const CONCURRENCY = 8;

const sqlTime = (dt: DateTime) => dt.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
export const inDays = (days: number) => sqlTime(DateTime.utc().plus({ days }));

export async function pool<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Must succeed: setup requests are not cases. */
export async function ok(res: request.Response, what: string) {
  if (res.status >= 300) {
    throw new Error(`setup failed (${what}): ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body as Record<string, unknown>;
}

export const loginOf = (role: Role) => (role === 'anonymous' ? undefined : role);
export const roleOf = (login: string) => login.replace(/2$/, '') as Role;
export const ownerLogin = (role: Role, owner: Owner): string => {
  if (owner === 'own') return role;
  if (role === 'subscriber' || role === 'contributor' || role === 'author') return `${role}2`;
  return role === 'administrator' ? 'editor' : 'administrator';
};
export const seedKey = (kind: Kind, condition: Condition, login: string) =>
  `${kind}/${condition}/${login}`;

/** Every event the matrix writes is a virtual one (the Virtual Events module's fields). */
export const MX_LINK = 'https://meet.example.org/matrix';

export function createBody(kind: Kind, name: string, extra: Record<string, unknown>) {
  if (kind === 'event') {
    return {
      title: name,
      slug: name,
      description: TEXT,
      // Strings: the override cases may send the body in the query string.
      is_virtual: 'true',
      virtual_url: MX_LINK,
      start_date: `${inDays(5).slice(0, 10)} 10:00:00`,
      end_date: `${inDays(5).slice(0, 10)} 12:00:00`,
      ...extra,
    };
  }
  return { [kind]: name, description: TEXT, ...extra };
}
