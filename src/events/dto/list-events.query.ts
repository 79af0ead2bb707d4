import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsIn, IsOptional } from 'class-validator';
import {
  OptionalBoolean,
  OptionalDateTime,
  OptionalIdList,
  OptionalTermList,
  OptionalInteger,
  OptionalShortValue,
  OptionalText,
} from '../../common/http/field-decorators.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { PageQuery } from '../../common/pagination/page-query.dto.js';
import { LIMITS } from '../../common/http/limits.js';
import { MaxItems } from '../../common/http/validators.js';

const d = resourceDoc('events');
const SERIES_MODES = ['all', 'once'] as const;

/** Query of `GET /events` (BEHAVIOR §5.2.1), in the plugin's declaration order. */
export class ListEventsQuery extends PageQuery {
  @ApiPropertyOptional({ description: d('per_page'), type: 'integer', default: 10 })
  declare per_page?: number;

  @OptionalDateTime(d('list.start_date'), { format: 'date-time' })
  start_date?: string;

  @OptionalDateTime(d('list.end_date'), { format: 'date-time' })
  end_date?: string;

  @OptionalDateTime(d('list.starts_before'), { format: 'date-time' })
  starts_before?: string;

  @OptionalDateTime(d('list.starts_after'), { format: 'date-time' })
  starts_after?: string;

  @OptionalDateTime(d('list.ends_before'), { format: 'date-time' })
  ends_before?: string;

  @OptionalDateTime(d('list.ends_after'), { format: 'date-time' })
  ends_after?: string;

  @OptionalText(d('list.strict_dates'), LIMITS.short, { default: 'false' })
  strict_dates?: string;

  @OptionalText(d('list.search'), LIMITS.search)
  search?: string;

  @OptionalTermList(d('list.categories'))
  categories?: Array<number | string>;

  @OptionalTermList(d('list.tags'))
  tags?: Array<number | string>;

  @OptionalIdList(d('list.venue'))
  venue?: number[];

  @OptionalIdList(d('list.organizer'))
  organizer?: number[];

  @OptionalBoolean(d('list.featured'))
  featured?: boolean;

  @ApiPropertyOptional({ description: d('list.status'), type: 'string' })
  @IsOptional()
  @Allow()
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.status })
  status?: unknown;

  @OptionalBoolean(d('list.geoloc'))
  geoloc?: boolean;

  @OptionalShortValue(d('list.geoloc_lat'), { type: 'number', format: 'double' })
  geoloc_lat?: unknown;

  @OptionalShortValue(d('list.geoloc_lng'), { type: 'number', format: 'double' })
  geoloc_lng?: unknown;

  @OptionalIdList(d('list.include'))
  include?: number[];

  @OptionalInteger(d('list.post_parent'))
  post_parent?: number;

  @OptionalShortValue(d('list.ticketed'), { type: 'boolean' })
  ticketed?: unknown;

  /** CONTRACT §9: `once` lists each recurring event once, at its next occurrence. */
  @ApiPropertyOptional({
    description: d('list.series'),
    type: 'string',
    enum: SERIES_MODES,
    default: 'all',
  })
  @IsOptional()
  @IsIn(SERIES_MODES, { message: 'validation.series' })
  series?: (typeof SERIES_MODES)[number];
}
