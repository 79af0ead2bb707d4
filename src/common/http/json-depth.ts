import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors/api-error.js';

/** PHP's json_decode() default depth, which WordPress decodes request bodies with. */
const MAX_JSON_DEPTH = 512;

/**
 * Express middleware, after the body parsers: a body nested deeper than json_decode() accepts
 * is answered as WordPress answers it, 400 `rest_invalid_json` with PHP's JSON_ERROR_DEPTH
 * (code 1). Without it, a deeply nested body (`[[[[...]]]]`, 100 000 levels fit in 1 MB) makes
 * class-transformer's recursive copy overflow the stack: a 500 (found by test/fuzz.e2e-spec.ts).
 */
export function rejectDeepJson(req: Request, _res: Response, next: NextFunction): void {
  if (depthExceeds(req.body, MAX_JSON_DEPTH)) {
    next(
      new ApiError('rest_invalid_json', 400, {
        json_error_code: 1,
        json_error_message: 'Maximum stack depth exceeded',
      }),
    );
    return;
  }
  next();
}

/** Whether arrays/objects nest more than `max` levels (iterative: no recursion to overflow). */
const depthExceeds = (value: unknown, max: number) => exceedsShape(value, max);

/**
 * Whether arrays/objects nest more than `maxDepth` levels or hold more than `maxEntries` array
 * items and object entries in all; one iterative walk that stops at the first excess.
 */
export function exceedsShape(value: unknown, maxDepth: number, maxEntries = Infinity): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  let entries = 0;
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    if (depth + 1 > maxDepth) return true;
    for (const child of Object.values(node)) {
      if (++entries > maxEntries) return true;
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}
