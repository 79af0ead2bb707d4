import { ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsArray, IsBoolean, IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { PageQuery } from '../../common/pagination/page-query.dto.js';
import { ToBoolean, ToInteger, ToList } from '../../common/http/transforms.js';
import { typeMessage } from '../../common/http/validation.js';
import { LIMITS } from '../../common/http/limits.js';
import {
  IsDateTimeLike,
  IsNonEmpty,
  IsStringType,
  MaxChars,
  MaxItems,
} from '../../common/http/validators.js';

const d = resourceDoc('events');
const SERIES_MODES = ['all', 'once'] as const;

/** Query of `GET /events` (BEHAVIOR §5.2.1), in the plugin's declaration order. */
export class ListEventsQuery extends PageQuery {
  @ApiPropertyOptional({ description: d('per_page'), type: 'integer', default: 10 })
  declare per_page?: number;

  @ApiPropertyOptional({ description: d('list.start_date'), type: 'string', format: 'date-time' })
  @IsOptional()
  @IsDateTimeLike()
  start_date?: string;

  @ApiPropertyOptional({ description: d('list.end_date'), type: 'string', format: 'date-time' })
  @IsOptional()
  @IsDateTimeLike()
  end_date?: string;

  @ApiPropertyOptional({
    description: d('list.starts_before'),
    type: 'string',
    format: 'date-time',
  })
  @IsOptional()
  @IsDateTimeLike()
  starts_before?: string;

  @ApiPropertyOptional({ description: d('list.starts_after'), type: 'string', format: 'date-time' })
  @IsOptional()
  @IsDateTimeLike()
  starts_after?: string;

  @ApiPropertyOptional({ description: d('list.ends_before'), type: 'string', format: 'date-time' })
  @IsOptional()
  @IsDateTimeLike()
  ends_before?: string;

  @ApiPropertyOptional({ description: d('list.ends_after'), type: 'string', format: 'date-time' })
  @IsOptional()
  @IsDateTimeLike()
  ends_after?: string;

  @ApiPropertyOptional({
    description: d('list.strict_dates'),
    type: 'string',
    default: 'false',
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.short)
  strict_dates?: string;

  @ApiPropertyOptional({ description: d('list.search'), type: 'string', maxLength: LIMITS.search })
  @IsOptional()
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.search)
  search?: string;

  @ApiPropertyOptional({
    description: d('list.categories'),
    type: 'array',
    items: { type: 'integer' },
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName })
  categories?: Array<number | string>;

  @ApiPropertyOptional({
    description: d('list.tags'),
    type: 'array',
    items: { type: 'integer' },
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName })
  tags?: Array<number | string>;

  @ApiPropertyOptional({
    description: d('list.venue'),
    type: 'array',
    items: { type: 'integer' },
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @IsInt({ each: true, message: 'invalid' })
  @Min(1, { each: true, message: 'invalid' })
  @MaxItems(LIMITS.listItems)
  venue?: number[];

  @ApiPropertyOptional({
    description: d('list.organizer'),
    type: 'array',
    items: { type: 'integer' },
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @IsInt({ each: true, message: 'invalid' })
  @Min(1, { each: true, message: 'invalid' })
  @MaxItems(LIMITS.listItems)
  organizer?: number[];

  @ApiPropertyOptional({ description: d('list.featured'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  featured?: boolean;

  @ApiPropertyOptional({ description: d('list.status'), type: 'string' })
  @IsOptional()
  @Allow()
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.status })
  status?: unknown;

  @ApiPropertyOptional({ description: d('list.geoloc'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  geoloc?: boolean;

  @ApiPropertyOptional({ description: d('list.geoloc_lat'), type: 'number', format: 'double' })
  @IsOptional()
  @Allow()
  @MaxChars(LIMITS.short)
  geoloc_lat?: unknown;

  @ApiPropertyOptional({ description: d('list.geoloc_lng'), type: 'number', format: 'double' })
  @IsOptional()
  @Allow()
  @MaxChars(LIMITS.short)
  geoloc_lng?: unknown;

  @ApiPropertyOptional({
    description: d('list.include'),
    type: 'array',
    items: { type: 'integer' },
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @ToList()
  @IsArray({ message: 'invalid' })
  @IsInt({ each: true, message: 'invalid' })
  @Min(1, { each: true, message: 'invalid' })
  @MaxItems(LIMITS.listItems)
  include?: number[];

  @ApiPropertyOptional({ description: d('list.post_parent'), type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: typeMessage('integer') })
  post_parent?: number;

  @ApiPropertyOptional({ description: d('list.ticketed'), type: 'boolean' })
  @IsOptional()
  @Allow()
  @MaxChars(LIMITS.short)
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
