import { OptionalPositiveId, OptionalTermRefs, OptionalTermText } from './term-fields.js';
import { IsBoolean, IsOptional } from 'class-validator';
import { PageQuery } from '../../common/pagination/page-query.dto.js';
import { LIMITS } from '../../common/http/limits.js';
import { ToBoolean } from '../../common/http/transforms.js';
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
  @OptionalTermText(LIMITS.search)
  search?: string;

  /** Term ids, slugs or names (numeric items are ids). */
  @OptionalTermRefs()
  exclude?: Array<number | string>;

  @OptionalTermRefs()
  include?: Array<number | string>;

  @OptionalTermText(LIMITS.short)
  order?: string;

  @OptionalTermText(LIMITS.short)
  orderby?: string;

  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  hide_empty?: boolean;

  @OptionalPositiveId()
  post?: number;

  /** Alias of `post`; wins when both are given. */
  @OptionalPositiveId()
  event?: number;

  @OptionalTermText(LIMITS.slug)
  slug?: string;
}

/** `GET /categories`: the shared parameters plus `parent` (direct children of a category). */
@DocumentProperties(listDocs('category'))
export class ListCategoriesQuery extends ListTermsQuery {
  @OptionalPositiveId()
  parent?: number;
}

/** `GET /tags`: tags have no `parent`, in input or output. */
@DocumentProperties(listDocs('tag'))
export class ListTagsQuery extends ListTermsQuery {}
