import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsArray, IsBoolean, IsDefined, IsInt, IsOptional, Max, Min } from 'class-validator';
import { LIMITS } from './limits.js';
import { ToBoolean, ToInteger, ToList } from './transforms.js';
import { MISSING, typeMessage } from './validation.js';
import { IsDateTimeLike, IsNonEmpty, IsStringType, MaxChars, MaxItems } from './validators.js';

/**
 * The kinds of request field that recur across the DTOs, each its documentation and its checks
 * in one decorator. The checks are given top to bottom as they would stand stacked above the
 * property, and registered as stacked decorators are (bottom first): the validator reports the
 * first registered check that fails, so a field reads the same message as when it stacked them.
 */
export const stacked = (...decorators: PropertyDecorator[]) =>
  applyDecorators(...decorators.toReversed());

/** Extra documentation of a field beside its description and type. */
interface Doc {
  default?: unknown;
  format?: string;
}

/** An optional value of a declared type, coerced the WordPress way before its type is checked. */
const optionalOf =
  (type: 'boolean' | 'integer', coerce: () => PropertyDecorator, check: () => PropertyDecorator) =>
  (description: string, doc: Doc = {}) =>
    stacked(ApiPropertyOptional({ description, type, ...doc }), IsOptional(), coerce(), check());

/** An optional boolean: true/false/1/0 and their strings (BEHAVIOR §1.3). */
export const OptionalBoolean = optionalOf('boolean', ToBoolean, () =>
  IsBoolean({ message: typeMessage('boolean') }),
);

/** An optional integer: a JSON number or a decimal string of an integral value. */
export const OptionalInteger = optionalOf('integer', ToInteger, () =>
  IsInt({ message: typeMessage('integer') }),
);

/**
 * An optional positive integer (a page, a page size), at most `max` if said; one that is no
 * integer reads `notInteger` ("Invalid parameter." unless said).
 */
export const OptionalPositiveInteger = (
  description: string,
  doc: Doc & { maximum?: number },
  { max, notInteger = 'invalid' }: { max?: number; notInteger?: string } = {},
) =>
  stacked(
    ApiPropertyOptional({ description, type: 'integer', ...doc }),
    IsOptional(),
    ToInteger(),
    IsInt({ message: notInteger }),
    Min(1, { message: 'invalid' }),
    ...(max === undefined ? [] : [Max(max, { message: 'invalid' })]),
  );

/** An optional date the way strtotime reads one. */
export const OptionalDateTime = (description: string, doc: Doc = {}) =>
  stacked(
    ApiPropertyOptional({ description, type: 'string', ...doc }),
    IsOptional(),
    IsDateTimeLike(),
  );

/** A date the way strtotime reads one, that must be sent. */
export const RequiredDateTime = (description: string) =>
  stacked(
    ApiProperty({ description, type: 'string' }),
    IsDefined({ message: MISSING }),
    IsDateTimeLike(),
  );

/** An optional non-empty string of at most `max` characters. */
export const OptionalText = (description: string, max: number, doc: Doc = {}) =>
  stacked(
    ApiPropertyOptional({ description, type: 'string', ...doc, maxLength: max }),
    IsOptional(),
    IsStringType(),
    IsNonEmpty(),
    MaxChars(max),
  );

/**
 * An optional value the service reads itself (it reports what it cannot use), of at most
 * LIMITS.short characters.
 */
export const OptionalShortValue = (
  description: string,
  doc: Doc & { type: 'number' | 'boolean' },
) =>
  stacked(
    ApiPropertyOptional({ description, ...doc }),
    IsOptional(),
    Allow(),
    MaxChars(LIMITS.short),
  );

/** An optional list (a list or a comma-separated string), read as record ids. */
const OptionalList = (description: string, ...checks: PropertyDecorator[]) =>
  stacked(
    ApiPropertyOptional({
      description,
      type: 'array',
      items: { type: 'integer' },
      maxItems: LIMITS.listItems,
    }),
    IsOptional(),
    ToList(),
    IsArray({ message: 'invalid' }),
    ...checks,
  );

/**
 * An optional list of terms (ids, slugs or names), at most LIMITS.listItems of at most
 * LIMITS.termName characters.
 */
export const OptionalTermList = (description: string) =>
  OptionalList(description, MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName }));

/** An optional list of record ids, at most LIMITS.listItems. */
export const OptionalIdList = (description: string) =>
  OptionalList(
    description,
    IsInt({ each: true, message: 'invalid' }),
    Min(1, { each: true, message: 'invalid' }),
    MaxItems(LIMITS.listItems),
  );
