import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Min,
  MinLength,
} from 'class-validator';
import { PageQuery } from '../../common/pagination/page-query.dto.js';
import { LIMITS } from '../../common/http/limits.js';
import { ToBoolean, ToInteger, ToList } from '../../common/http/transforms.js';
import { MaxChars, MaxItems } from '../../common/http/validators.js';
import { typeMessage } from '../../common/http/validation.js';
import { DocumentProperties, listDocs } from './term-docs.js';

/**
 * The list parameters both term routes share (BEHAVIOR §5.4). Only the formats are checked here;
 * whether `include`/`exclude` items, `post`/`event` and `parent` name existing records is
 * checked by the service, still before anything else happens (validation precedes permission).
 * The plugin's validators run before its type checks, so a bad value reads "Invalid parameter."
 * except for the declared boolean `hide_empty`.
 */
export class ListTermsQuery extends PageQuery {
  @IsOptional()
  @IsString({ message: 'invalid' })
  @MinLength(1, { message: 'invalid' })
  @MaxChars(LIMITS.search)
  search?: string;

  /** Term ids, slugs or names (numeric items are ids). */
  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @ArrayMinSize(1, { message: 'invalid' })
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName })
  exclude?: Array<number | string>;

  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @ArrayMinSize(1, { message: 'invalid' })
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName })
  include?: Array<number | string>;

  @IsOptional()
  @IsString({ message: 'invalid' })
  @MinLength(1, { message: 'invalid' })
  @MaxChars(LIMITS.short)
  order?: string;

  @IsOptional()
  @IsString({ message: 'invalid' })
  @MinLength(1, { message: 'invalid' })
  @MaxChars(LIMITS.short)
  orderby?: string;

  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  hide_empty?: boolean;

  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  post?: number;

  /** Alias of `post`; wins when both are given. */
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  event?: number;

  @IsOptional()
  @IsString({ message: 'invalid' })
  @MinLength(1, { message: 'invalid' })
  @MaxChars(LIMITS.slug)
  slug?: string;
}

/** `GET /categories`: the shared parameters plus `parent` (direct children of a category). */
@DocumentProperties(listDocs('category'))
export class ListCategoriesQuery extends ListTermsQuery {
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  parent?: number;
}

/** `GET /tags`: tags have no `parent`, in input or output. */
@DocumentProperties(listDocs('tag'))
export class ListTagsQuery extends ListTermsQuery {}
