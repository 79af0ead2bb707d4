import {
  ArrayMinSize,
  IsArray,
  IsInt,
  IsOptional,
  IsString,
  Min,
  MinLength,
} from 'class-validator';
import { stacked } from '../../common/http/field-decorators.js';
import { LIMITS } from '../../common/http/limits.js';
import { ToInteger, ToList } from '../../common/http/transforms.js';
import { MaxChars, MaxItems } from '../../common/http/validators.js';

/**
 * The kinds of field the term routes' inputs share (BEHAVIOR §5.4, §7.6). The plugin's validators
 * run before its type checks, so a value of the wrong type reads "Invalid parameter." too.
 */

/** A non-empty string of at most `max` characters. */
export const TermText = (max: number) =>
  stacked(IsString({ message: 'invalid' }), MinLength(1, { message: 'invalid' }), MaxChars(max));

/** An optional {@link TermText}. */
export const OptionalTermText = (max: number) => stacked(IsOptional(), TermText(max));

/** An optional positive record id (whether it names a record is checked by the service). */
export const OptionalPositiveId = () =>
  stacked(IsOptional(), ToInteger(), IsInt({ message: 'invalid' }), Min(1, { message: 'invalid' }));

/** An optional non-empty list of term ids, slugs or names (numeric items are ids). */
export const OptionalTermRefs = () =>
  stacked(
    IsOptional(),
    ToList(),
    IsArray({ message: 'invalid' }),
    ArrayMinSize(1, { message: 'invalid' }),
    MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName }),
  );
