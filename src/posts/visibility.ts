import type { SelectQueryBuilder, ObjectLiteral } from 'typeorm';
import type { Actor } from '../common/actor.js';
import { unpublishedScope } from '../auth/post-policy.js';
import type { PostStatus } from '../auth/post-policy.js';

/**
 * A placeholder for `value` under `name` (unique within one condition set): the query builder's
 * named parameter, or a plain statement's `?` (`list`: one per element, for `IN`).
 */
type Bind = (name: string, value: unknown, list?: boolean) => string;

/**
 * The conditions (each ANDed) that restrict a post query to `statuses` and to what `actor` may
 * see (CONTRACT §2): editors see every record of those statuses, authors and contributors
 * unpublished records of their own only, everyone else published ones. A `future` record whose
 * date has passed counts as published (CONTRACT §6), without a write on read.
 */
function visibilityConditions(
  alias: string,
  actor: Actor,
  statuses: PostStatus[],
  nowUtc: string,
  bind: Bind,
): string[] {
  const published = () =>
    `(${alias}.status = 'publish' OR (${alias}.status = 'future' AND ${alias}.date_utc <= ${bind('now', nowUtc)}))`;
  const inStatuses = `${alias}.status IN (${bind('st', statuses, true)})`;
  const conditions = [
    statuses.includes('publish')
      ? `(${inStatuses} OR ${published()})`
      : `(${inStatuses} AND NOT ${published()})`,
  ];
  const scope = unpublishedScope(actor);
  if (scope === 'own') {
    conditions.push(`(${published()} OR ${alias}.author_id = ${bind('uid', actor.user!.id)})`);
  } else if (scope === 'none') {
    conditions.push(published());
  }
  return conditions;
}

/** Restricts a query builder's post query as visibilityConditions says. */
export function applyPostVisibility<T extends ObjectLiteral>(
  qb: SelectQueryBuilder<T>,
  alias: string,
  actor: Actor,
  statuses: PostStatus[],
  nowUtc: string,
): SelectQueryBuilder<T> {
  const p = `vis_${alias}`;
  const params: Record<string, unknown> = {};
  const bind: Bind = (name, value, list) => {
    params[`${p}_${name}`] = value;
    return `:${list ? '...' : ''}${p}_${name}`;
  };
  for (const condition of visibilityConditions(alias, actor, statuses, nowUtc, bind)) {
    qb.andWhere(condition, params);
  }
  return qb;
}

/**
 * The same conditions for a plain statement, ANDed into one: each placeholder a `?` whose value
 * is pushed onto `params` in order.
 */
export function postVisibilitySql(
  alias: string,
  actor: Actor,
  statuses: PostStatus[],
  nowUtc: string,
  params: unknown[],
): string {
  const bind: Bind = (_name, value, list) => {
    const values = list ? (value as unknown[]) : [value];
    params.push(...values);
    return values.map(() => '?').join(', ');
  };
  return visibilityConditions(alias, actor, statuses, nowUtc, bind).join(' AND ');
}
