import type { SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { unpublishedScope } from '../auth/post-policy.js';
import type { PostStatus } from '../auth/post-policy.js';

/**
 * Restricts a post query to `statuses` and to what `actor` may see (CONTRACT §2): editors see
 * every record of those statuses, authors and contributors unpublished records of their own only,
 * everyone else published ones. A `future` record whose date has passed counts as published
 * (CONTRACT §6), without a write on read.
 */
export function applyPostVisibility<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  actor: Actor,
  statuses: PostStatus[],
  nowUtc: string,
): SelectQueryBuilder<T> {
  const p = `vis_${alias}`;
  const published = `(${alias}.status = 'publish' OR (${alias}.status = 'future' AND ${alias}.date_utc <= :${p}_now))`;
  const wanted = statuses.includes('publish')
    ? `(${alias}.status IN (:...${p}_st) OR ${published})`
    : `(${alias}.status IN (:...${p}_st) AND NOT ${published})`;
  qb.andWhere(wanted, { [`${p}_st`]: statuses, [`${p}_now`]: nowUtc });
  const scope = unpublishedScope(actor);
  if (scope === 'own') {
    qb.andWhere(`(${published} OR ${alias}.author_id = :${p}_uid)`, {
      [`${p}_uid`]: actor.user!.id,
    });
  } else if (scope === 'none') {
    qb.andWhere(published);
  }
  return qb;
}
