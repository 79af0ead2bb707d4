import { ValidateBy, type ValidationOptions } from 'class-validator';
import { isValidDateTime, isValidTimezone } from '../dates/index.js';
import { LIMIT_CHECKS, type ListMode } from './limits.js';
import { typeMessage } from './validation.js';

/**
 * WordPress-style parameter validators. Each reports one reason code (see validation.ts):
 * a wrong JSON type → `type:<name>`, a wrong value → `invalid`.
 */

/** Declared `string` parameters: a JSON number or boolean is a type error (BEHAVIOR §1.3). */
export const IsStringType = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isStringType', validator: { validate: (v) => typeof v === 'string' } },
    { message: typeMessage('string'), ...options },
  );

/** A non-empty string (`""` → "Invalid parameter."). Use after IsStringType. */
export const IsNonEmpty = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isNonEmpty', validator: { validate: (v) => typeof v !== 'string' || v.length > 0 } },
    { message: 'invalid', ...options },
  );

/** A Unix timestamp or anything PHP `strtotime()` accepts (BEHAVIOR §1.4). */
export const IsDateTimeLike = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isDateTimeLike',
      validator: {
        validate: (v) =>
          (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) &&
          isValidDateTime(v),
      },
    },
    { message: 'invalid', ...options },
  );

/** Empty, or a time zone the plugin accepts: IANA names, `UTC`, `UTC+2`, `UTC-5.5` (§1.7). */
export const IsTimezoneOrEmpty = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isTimezoneOrEmpty',
      validator: { validate: (v) => v === '' || isValidTimezone(v) },
    },
    { message: 'invalid', ...options },
  );

/**
 * Empty, or a URL with a scheme and a host, as PHP `FILTER_VALIDATE_URL` checks it
 * (`foo` is rejected, `http://example` accepted).
 */
export function isUrlOrEmpty(v: unknown): boolean {
  if (v === '' || v === null) return true;
  if (typeof v !== 'string' || /\s/.test(v)) return false;
  try {
    const url = new URL(v);
    return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) && !!url.hostname;
  } catch {
    return false;
  }
}
export const IsUrlOrEmpty = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isUrlOrEmpty', validator: { validate: isUrlOrEmpty } },
    { message: 'invalid', ...options },
  );

/** An absolute http(s) URL (images are stored as URLs, CONTRACT §6). */
export function isHttpUrl(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  try {
    const url = new URL(v);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !!url.hostname;
  } catch {
    return false;
  }
}

function limitValidator(name: string, constraints: unknown[]) {
  const check = LIMIT_CHECKS[name];
  return ValidateBy({
    name,
    constraints,
    validator: {
      validate: (v) => check(v, constraints) === null,
      defaultMessage: (args) => check(args?.value, constraints) ?? 'invalid',
    },
  });
}

/**
 * At most `max` characters (limits.ts). Only strings are measured: a value of another type is left
 * to the field's type check, so the two never depend on decorator order. Put it last (nearest the
 * property): class-validator runs that one first, before costlier format checks.
 */
export const MaxChars = (max: number) => limitValidator('maxChars', [max]);

/**
 * A list parameter (limits.ts `listItemCount`) of at most `maxItems` items, each string item (or
 * comma-separated part) at most `itemChars` characters. The count is taken before anything looks
 * at the items, so an oversized list costs one pass over the input.
 */
export const MaxItems = (maxItems: number, options: { itemChars?: number; mode?: ListMode } = {}) =>
  limitValidator('maxItems', [maxItems, options.itemChars, options.mode ?? 'list']);

/**
 * The event `cost` (a string, a number or a list of them; common/cost parses it): at most
 * `LIMITS.costEntries` values of at most `LIMITS.costEntry` characters each. The currency symbol
 * derived from one value is never longer than the value.
 */
export const CostBounds = () => limitValidator('costBounds', []);
