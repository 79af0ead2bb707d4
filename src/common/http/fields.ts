import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request } from 'express';
import { map, type Observable } from 'rxjs';
import { invalidParams, t } from '../errors/api-error.js';
import { isJsonValue } from './json-body.js';

/** The fields a reader asked for: a name, or a name whose own fields were asked for. */
export interface FieldTree {
  [name: string]: FieldTree | true;
}

/** At most this many names in `_fields`, each of at most MAX_NAME characters and MAX_DEPTH parts. */
const MAX_NAMES = 100;
const MAX_NAME = 200;
const MAX_DEPTH = 8;

/**
 * `_fields` as WordPress reads it (`wp_parse_list`, then `rest_filter_response_fields`): a list
 * given as a string split on commas and white space, or as an array (`_fields[]=id`); dotted
 * names (`events.id`) reach into a field. A parent named whole wins over its dotted children,
 * in either order. Undefined when the parameter is absent or names nothing (the answer is then
 * whole, as in WordPress); a list beyond the bounds is a 400 naming `_fields`.
 */
export function parseFields(value: unknown): FieldTree | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const names: string[] = [];
  for (const item of items) {
    if (typeof item !== 'string') throw badFields();
    names.push(...item.split(/[\s,]+/).filter(Boolean));
  }
  if (!names.length) return undefined;
  if (names.length > MAX_NAMES) throw badFields();
  const tree = Object.create(null) as FieldTree;
  for (const name of names) {
    const parts = name.split('.');
    if (name.length > MAX_NAME || parts.length > MAX_DEPTH) throw badFields();
    let at = tree;
    const last = parts.pop()!;
    let covered = false;
    for (const part of parts) {
      const next = Object.hasOwn(at, part) ? at[part] : undefined;
      // WordPress: "skip any sub-properties if their parent prop is already marked for inclusion".
      if (next === true) {
        covered = true;
        break;
      }
      at = next ?? (at[part] = Object.create(null) as FieldTree);
    }
    if (!covered) at[last] = true;
  }
  return tree;
}

const badFields = () => invalidParams({ _fields: t('validation.invalid') });

/**
 * The answer reduced to the fields asked for (WordPress `_rest_array_intersect_key_recursive`),
 * in the answer's own order. A list is reduced item by item, at the top as WordPress does and
 * also inside an object (`events.id` reaches into the list envelope's `events`, where WordPress
 * would intersect the list's numeric keys and leave it empty). A value that is not an object
 * stays as it is. Only ever removes: nothing the answer did not carry can appear.
 */
export function pickFields(data: unknown, tree: FieldTree): unknown {
  if (Array.isArray(data)) return data.map((item) => pickFields(item, tree));
  if (data === null || typeof data !== 'object') return data;
  // Entries, not assignments: a `__proto__` key of the answer stays a plain key.
  const picked: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(data)) {
    if (!Object.hasOwn(tree, key)) continue;
    const wanted = tree[key];
    picked.push([key, wanted === true ? value : pickFields(value, wanted)]);
  }
  return Object.fromEntries(picked);
}

/**
 * `_fields` on every JSON answer of every route (WordPress applies it on `rest_post_dispatch`):
 * inside the response cache, so a cached variant (its URL carries `_fields`) is stored already
 * reduced, and outside the interceptors that build and rename the payload, so it sees the
 * payload the reader would have seen whole. Errors are thrown past it and stay whole, as in
 * WordPress. Read where WordPress's `get_param` reads it: the body, then the query string.
 */
@Injectable()
export class FieldsInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const req = context.switchToHttp().getRequest<Request>();
    const body = req.body as Record<string, unknown> | undefined;
    const fromBody =
      body !== null && typeof body === 'object' && !Array.isArray(body) ? body._fields : undefined;
    const tree = parseFields(fromBody ?? (req.query as Record<string, unknown>)._fields);
    if (!tree) return next.handle();
    return next
      .handle()
      .pipe(
        map((answer: unknown) =>
          answer !== null && typeof answer === 'object' && isJsonValue(answer)
            ? pickFields(answer, tree)
            : answer,
        ),
      );
  }
}
