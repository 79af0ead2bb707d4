import { invalidParam } from '../common/errors/api-error.js';

/**
 * BEHAVIOR §7.1.4: an event's `categories`/`tags` on write are a list (JSON array, repeated or
 * bracket keys) or a comma-separated string. Items are trimmed, empty ones dropped, digit-only
 * strings become numbers. `""`, `[]` and `null` mean "no terms". An item that is neither a number
 * nor a string (an object, a nested list, null, a boolean) is a 400 on the field (**Service:** the
 * plugin answers 500 there).
 */
export function normalizeWriteItems(field: string, input: unknown): Array<number | string> {
  if (input === null || input === undefined) return [];
  let items: unknown[];
  if (Array.isArray(input)) items = input;
  else if (typeof input === 'string' || typeof input === 'number') items = [input];
  else if (isIndexedObject(input)) items = Object.values(input);
  else throw invalidParam(field);
  const out: Array<number | string> = [];
  for (const item of items) {
    if (typeof item === 'number') {
      if (!Number.isFinite(item)) throw invalidParam(field);
      out.push(item);
    } else if (typeof item === 'string') {
      for (const part of item.split(',')) {
        const trimmed = part.trim();
        if (trimmed === '') continue;
        out.push(/^\d+$/.test(trimmed) ? Number(trimmed) : trimmed);
      }
    } else {
      throw invalidParam(field);
    }
  }
  return out;
}

/** `categories[0]=a&categories[1]=b` may arrive as `{ "0": "a", "1": "b" }` (qs, many keys). */
function isIndexedObject(value: unknown): value is Record<string, unknown> {
  if (!value || typeof value !== 'object') return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => /^\d+$/.test(k));
}
