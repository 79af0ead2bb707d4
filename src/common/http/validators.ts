import { ValidateBy, type ValidationOptions } from 'class-validator';
import { dateProblem, isValidTimezone, MAX_DATE_LENGTH } from '../dates/index.js';
import { LIMIT_CHECKS, type ListMode } from './limits.js';
import { typeMessage } from './validation.js';
import { isWebUrl } from './web-url.js';

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

/**
 * The reason given for a refused date-time (`validation.*` keys): over-long text, an instant
 * outside the years 1-9999, or anything else (with the accepted forms and examples). The
 * messages take `{max}` from the validator's context ({@link DATE_CONTEXT}).
 */
export function dateReason(value: unknown, zone = 'UTC'): string | null {
  const problem = dateProblem(value, zone);
  if (problem === null) return null;
  if (problem === 'too_long') return 'validation.date_too_long';
  if (problem === 'out_of_range') return 'validation.date_range';
  return 'validation.date';
}

/** Arguments of the date messages (toWpValidationError reads a constraint's context). */
/** `count` picks the plural form of the message (100 de caractere in Romanian). */
export const DATE_CONTEXT = { max: MAX_DATE_LENGTH, count: MAX_DATE_LENGTH };

const isDateTimeLike = (v: unknown) =>
  (typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v))) &&
  dateReason(v) === null;

/**
 * A Unix timestamp or anything PHP `strtotime()` accepts (BEHAVIOR §1.4), at most
 * MAX_DATE_LENGTH characters (CONTRACT §4: longer text is refused before it is parsed).
 */
export const IsDateTimeLike = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isDateTimeLike',
      validator: {
        validate: (v) => isDateTimeLike(v),
        defaultMessage: (args) =>
          typeof args?.value === 'number' && !Number.isInteger(args.value)
            ? 'validation.date'
            : (dateReason(args?.value) ?? 'validation.date'),
      },
    },
    { context: DATE_CONTEXT, ...options },
  );

/**
 * Empty, or a time zone the plugin accepts: IANA names, `UTC`, `UTC+2`, `UTC-5.5` (§1.7). The
 * reason names the accepted forms.
 */
export const IsTimezoneOrEmpty = (options?: ValidationOptions) =>
  ValidateBy(
    {
      name: 'isTimezoneOrEmpty',
      validator: { validate: (v) => v === '' || isValidTimezone(v) },
    },
    { message: 'validation.timezone', ...options },
  );

/** The reason of a URL field that is not an http(s) URL: "{name} must be an http or https URL." */
export const URL_REASON = 'validation.url';

/**
 * Empty, or an http(s) URL with a host (CONTRACT §6 "Links": `foo` and `javascript://x/` are
 * rejected, `http://example` accepted); the reason names the field and the schemes.
 */
function isUrlOrEmpty(v: unknown): boolean {
  return v === '' || v === null || isWebUrl(v);
}
export const IsUrlOrEmpty = (options?: ValidationOptions) =>
  ValidateBy(
    { name: 'isUrlOrEmpty', validator: { validate: isUrlOrEmpty } },
    { message: URL_REASON, ...options },
  );

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
