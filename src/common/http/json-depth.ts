import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';

/** PHP's json_decode() default depth, which WordPress decodes request bodies with. */
export const MAX_JSON_DEPTH = 512;

/**
 * Most arrays and objects' entries a body may hold in all. The widest real write (an event with
 * 100 inline organizers and 100 categories and tags) has about 2,000; every list is limited to 100
 * items (CONTRACT §4). Without it, a 1 MB body of `[1,1,1,...]` in a declared field costs
 * class-transformer a third of a second before the type check refuses it.
 */
export const MAX_JSON_VALUES = 10_000;

/**
 * Express middleware, after the body parsers: a body nested deeper than json_decode() accepts
 * is answered as WordPress answers it, 400 `rest_invalid_json` with PHP's JSON_ERROR_DEPTH
 * (code 1). Without it, a deeply nested body (`[[[[...]]]]`, 100 000 levels fit in 1 MB) makes
 * class-transformer's recursive copy overflow the stack: a 500 (found by test/fuzz.e2e-spec.ts).
 */
export function rejectDeepJson(req: Request, _res: Response, next: NextFunction): void {
  const problem = shapeProblem(req.body, MAX_JSON_DEPTH, MAX_JSON_VALUES);
  if (problem === 'depth') {
    next(
      new ApiError('rest_invalid_json', 400, {
        json_error_code: 1,
        json_error_message: 'Maximum stack depth exceeded',
      }),
    );
    return;
  }
  if (problem === 'width') {
    next(
      new ApiError('rest_invalid_json', 400, {
        json_error_message: `More than ${MAX_JSON_VALUES} values`,
      }),
    );
    return;
  }
  next();
}

/**
 * `depth` when arrays/objects nest more than `maxDepth` levels, `width` when they hold more than
 * `maxValues` entries in all; one iterative walk that stops at the first excess.
 */
export function shapeProblem(
  value: unknown,
  maxDepth: number,
  maxValues: number,
): 'depth' | 'width' | null {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let values = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > maxDepth) return 'depth';
    const children = Object.values(node);
    values += children.length;
    if (values > maxValues) return 'width';
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return null;
}
