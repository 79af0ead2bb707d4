import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsOptional, ValidateBy } from 'class-validator';
import { toInteger } from '../common/http/transforms.js';
import { DATE_CONTEXT, dateReason, MaxChars, URL_REASON } from '../common/http/validators.js';
import { isWebUrl } from '../common/http/web-url.js';
import { typeMessage } from '../common/http/validation.js';
import { isWritableStatus } from '../posts/post-status.js';
import { imageIdOf } from '../posts/image-ids.js';

/**
 * Field checks of the venue and organizer write routes (BEHAVIOR §7.4.1, §7.5, §1.3). Each is one
 * validator whose message depends on the value, so the reason does not hinge on decorator order:
 * a JSON value of the wrong type is "{name} is not of type string.", a bad string "Invalid
 * parameter.".
 */
type Check = (value: unknown) => true | string;

/** `context`: arguments of the reason's message (toWpValidationError reads them). */
function check(name: string, fn: Check, context?: Record<string, string | number>) {
  return ValidateBy(
    {
      name,
      validator: {
        validate: (value: unknown) => fn(value) === true,
        defaultMessage: (args) => {
          const result = fn(args?.value);
          return result === true ? 'invalid' : result;
        },
      },
    },
    context ? { context } : undefined,
  );
}

const STRING = typeMessage('string');

/** Declared `string`, may be empty (address, city, phone, show_map, ...). */
export const IsStringField = () =>
  check('isStringField', (v) => (typeof v === 'string' ? true : STRING));

/** Declared `string`, non-empty (`search`; `""` → 400). */
export const IsNonEmptyString = () =>
  check('isNonEmptyString', (v) => (typeof v !== 'string' ? STRING : v ? true : 'invalid'));

/**
 * The venue/organizer name: a non-empty string when given. Absent (or null) passes without an
 * `@IsOptional()`, because class-validator runs `@IsOptional()` before `@IsDefined()`: the create
 * DTO adds `@IsDefined()` to the same property and must still see an absent name.
 */
export const IsNameField = () =>
  check('isNameField', (v) =>
    v === undefined || v === null ? true : typeof v !== 'string' ? STRING : v ? true : 'invalid',
  );

/**
 * A date-time PHP `strtotime()` reads (BEHAVIOR §1.4), at most MAX_DATE_LENGTH characters
 * (CONTRACT §4); validity does not depend on the zone.
 */
export const IsDateTimeField = () =>
  check(
    'isDateTimeField',
    (v) => (typeof v !== 'string' ? STRING : (dateReason(v) ?? true)),
    DATE_CONTEXT,
  );

/** TEC `is_url_or_empty`, web URLs only (CONTRACT §6 "Links"). */
export const IsWebsiteField = () =>
  check('isWebsiteField', (v) =>
    typeof v !== 'string' ? STRING : v === '' || isWebUrl(v) ? true : URL_REASON,
  );

/**
 * TEC `is_image_or_empty` under CONTRACT §6: `""` (no image), an http(s) URL, or an image id (a
 * number or a numeric string). Whether the id is an image record this service holds, and whether
 * the caller may upload, is checked by the service (it needs the database and the caller).
 */
export const IsImageField = () =>
  check('isImageField', (v) =>
    (typeof v === 'string' && (v === '' || isWebUrl(v))) || imageIdOf(v) !== undefined
      ? true
      : typeof v === 'string' && !/^\d+$/.test(v)
        ? URL_REASON
        : 'invalid',
  );

/** CONTRACT §3: one of the writable statuses. */
export const IsWritableStatusField = () =>
  check('isWritableStatusField', (v) => (isWritableStatus(v) ? true : 'validation.status'));

/** TEC `is_user_id`: a positive integer; whether the user exists is checked by the service. */
export const IsAuthorField = () =>
  check('isAuthorField', (v) => (Number.isSafeInteger(v) && (v as number) > 0 ? true : 'invalid'));

export const ToAuthor = () => Transform(({ value }) => toInteger(value));

/** Numbers from forms arrive as strings; `""` stays `""` (it clears the coordinate). */
export const ToCoordinate = () =>
  Transform(({ value }) =>
    typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : value,
  );

/** A latitude/longitude within ±`max` degrees, or `""` to clear it. */
export const IsCoordinateField = (max: number) =>
  check('isCoordinateField', (v) => {
    if (v === '') return true;
    if (typeof v !== 'number' || !Number.isFinite(v)) return typeMessage('number');
    return Math.abs(v) <= max ? true : 'invalid';
  });

/** A post id parameter (`event` filter): a positive integer, else "Invalid parameter.". */
export const IsPostIdField = () =>
  check('isPostIdField', (v) => (Number.isSafeInteger(v) && (v as number) > 0 ? true : 'invalid'));

/** Undeclared list values (`status=a,b` or `status[]=a`) pass through as given. */
export const IsStatusListInput = () =>
  check('isStatusListInput', (v) =>
    typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'))
      ? true
      : 'invalid',
  );

/**
 * An optional string field of a venue or organizer, documented as WordPress's schema does
 * (`default: null`): a string if sent (`check`, {@link IsStringField} unless said), at most
 * `max` characters. The checks are registered in the order the stacked decorators were.
 */
export const OptionalTextField = (
  description: string,
  max: number,
  stringCheck: PropertyDecorator = IsStringField(),
) =>
  applyDecorators(
    MaxChars(max),
    stringCheck,
    IsOptional(),
    ApiPropertyOptional({ description, type: 'string', default: null, maxLength: max }),
  );
