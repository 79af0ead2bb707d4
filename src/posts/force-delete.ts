import { invalidParams, t } from '../common/errors/api-error.js';
import { doc } from '../common/i18n/doc-key.js';

const TRUE = new Set(['true', '1']);
const FALSE = new Set(['false', '0', '']);

/**
 * WordPress's `force` of a DELETE (query string): `true` deletes a record in the trash for good
 * instead of trashing it (CONTRACT §3). Anything but a boolean is a 400 on `force`.
 */
export function forceOf(query: Record<string, unknown>): boolean {
  const raw = query.force;
  if (raw === undefined) return false;
  if (typeof raw === 'string' && TRUE.has(raw.toLowerCase())) return true;
  if (typeof raw === 'string' && FALSE.has(raw.toLowerCase())) return false;
  throw invalidParams({ force: t('validation.force') });
}

/** A forced DELETE of a record not in the trash: it is trashed first, as WordPress's admin asks. */
export const notTrashed = () => invalidParams({ force: t('validation.force_not_trashed') });

/** `force` as the OpenAPI documents declare it on the DELETE routes of events, venues and organizers. */
export const FORCE_QUERY = {
  name: 'force',
  required: false,
  description: doc('common.force'),
  schema: { type: 'boolean' as const, default: false },
};
