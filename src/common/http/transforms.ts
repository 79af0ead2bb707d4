import { Transform } from 'class-transformer';

/**
 * Query strings carry only strings; these transforms coerce them the WordPress way and leave
 * anything they cannot coerce untouched, so that the validator after them reports the error.
 */

/** Integers: a JSON number or a decimal string whose value is integral (`"5"`, `"5.0"`). */
export function toInteger(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && /^\s*[+-]?\d+(\.0*)?\s*$/.test(value)) return Number(value);
  return value;
}
export const ToInteger = () => Transform(({ value }) => toInteger(value));

/** Declared booleans: true/false/1/0 and their strings, any case (BEHAVIOR §1.3). */
export function toBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase();
    if (v === 'true' || v === '1') return true;
    if (v === 'false' || v === '0') return false;
  }
  return value;
}
export const ToBoolean = () => Transform(({ value }) => toBoolean(value));

const TRUTHY = new Set(['1', 'enable', 'enabled', 'on', 'y', 'yes', 'true']);

/** Undeclared "truthy" values (`has_events`, ...): never an error (tribe_is_truthy). */
export function isTruthy(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (typeof value === 'string') return TRUTHY.has(value.trim().toLowerCase());
  return false;
}
export const ToTruthy = () =>
  Transform(({ value }) => (value === undefined ? value : isTruthy(value)));

/**
 * Lists: a JSON array, repeated or bracket keys (parsed by the extended query parser) or a
 * comma-separated string; items trimmed, empty items dropped, numeric items become numbers.
 */
function toList(value: unknown): unknown {
  if (value === undefined || value === null) return value;
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else if (typeof value === 'object') items = Object.values(value);
  else if (typeof value === 'string' || typeof value === 'number') items = [value];
  else return value;
  return items
    .flatMap((item) =>
      typeof item === 'string' ? decodeURIComponentSafe(item).split(',') : [item],
    )
    .map((item) => (typeof item === 'string' ? item.trim() : item))
    .filter((item) => item !== '')
    .map((item) => (typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item));
}
export const ToList = () => Transform(({ value }) => toList(value));

function decodeURIComponentSafe(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
