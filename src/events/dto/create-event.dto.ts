import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsDefined, IsIn, IsInt, IsOptional } from 'class-validator';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { ToBoolean, ToInteger } from '../../common/http/transforms.js';
import { MISSING, typeMessage } from '../../common/http/validation.js';
import { LIMITS } from '../../common/http/limits.js';
import {
  CostBounds,
  IsDateTimeLike,
  IsNonEmpty,
  IsStringType,
  IsTimezoneOrEmpty,
  IsUrlOrEmpty,
  MaxChars,
  MaxItems,
} from '../../common/http/validators.js';
import { WRITABLE_STATUSES, type WritableStatus } from '../../posts/post-status.js';
import { IsTranslationOf, TRANSLATION_OF_DOC } from '../../posts/translation-fields.js';
import { RECURRENCE_LIMITS } from '../../common/recurrence/rules.js';

const d = resourceDoc('events');

/** Fields of BEHAVIOR §7.1.1, in the plugin's declaration order (it orders error messages). */
export class CreateEventDto {
  @ApiProperty({ description: d('title'), type: 'string', maxLength: LIMITS.title })
  @IsDefined({ message: MISSING })
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.title)
  title!: string;

  @ApiProperty({ description: d('start_date'), type: 'string' })
  @IsDefined({ message: MISSING })
  @IsDateTimeLike()
  start_date!: string | number;

  @ApiProperty({ description: d('end_date'), type: 'string' })
  @IsDefined({ message: MISSING })
  @IsDateTimeLike()
  end_date!: string | number;

  @ApiPropertyOptional({ description: d('author'), type: 'integer' })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: typeMessage('integer') })
  author?: number;

  @ApiPropertyOptional({ description: d('date'), type: 'string' })
  @IsOptional()
  @IsDateTimeLike()
  date?: string | number;

  @ApiPropertyOptional({ description: d('date_utc'), type: 'string' })
  @IsOptional()
  @IsDateTimeLike()
  date_utc?: string | number;

  @ApiPropertyOptional({ description: d('description'), type: 'string', maxLength: LIMITS.content })
  @IsOptional()
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.content)
  description?: string;

  @ApiPropertyOptional({ description: d('slug'), type: 'string', maxLength: LIMITS.slug })
  @IsOptional()
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.slug)
  slug?: string;

  @ApiPropertyOptional({ description: d('excerpt'), type: 'string', maxLength: LIMITS.content })
  @IsOptional()
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.content)
  excerpt?: string;

  @ApiPropertyOptional({ description: d('status'), type: 'string', enum: WRITABLE_STATUSES })
  @IsOptional()
  @IsIn(WRITABLE_STATUSES, { message: 'invalid' })
  status?: WritableStatus;

  @ApiPropertyOptional({ description: d('timezone'), type: 'string', maxLength: LIMITS.timezone })
  @IsOptional()
  @IsStringType()
  @IsTimezoneOrEmpty()
  @MaxChars(LIMITS.timezone)
  timezone?: string;

  @ApiPropertyOptional({ description: d('all_day'), type: 'boolean', default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  all_day?: boolean;

  @ApiPropertyOptional({ description: d('image'), type: 'string', maxLength: LIMITS.url })
  @IsOptional()
  @Allow()
  @MaxChars(LIMITS.url)
  image?: unknown;

  /** At most LIMITS.costEntries values of LIMITS.costEntry characters (CONTRACT §4). */
  @ApiPropertyOptional({ description: d('cost'), maxLength: LIMITS.costEntry })
  @IsOptional()
  @Allow()
  @CostBounds()
  cost?: unknown;

  @ApiPropertyOptional({
    description: d('website'),
    type: 'string',
    format: 'uri',
    default: null,
    maxLength: LIMITS.url,
  })
  @IsOptional()
  @IsUrlOrEmpty()
  @MaxChars(LIMITS.url)
  website?: string;

  @ApiPropertyOptional({ description: d('show_map'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  show_map?: boolean;

  @ApiPropertyOptional({ description: d('show_map_link'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  show_map_link?: boolean;

  @ApiPropertyOptional({ description: d('hide_from_listings'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  hide_from_listings?: boolean;

  @ApiPropertyOptional({ description: d('sticky'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  sticky?: boolean;

  @ApiPropertyOptional({ description: d('featured'), type: 'boolean' })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  featured?: boolean;

  @ApiPropertyOptional({
    description: d('categories'),
    type: 'array',
    items: { type: 'integer' },
    default: null,
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @Allow()
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName })
  categories?: unknown;

  @ApiPropertyOptional({
    description: d('tags'),
    type: 'array',
    items: { type: 'integer' },
    default: null,
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @Allow()
  @MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName })
  tags?: unknown;

  @ApiPropertyOptional({
    description: d('venue'),
    type: 'array',
    items: { type: 'integer' },
    default: null,
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @Allow()
  // Counted before any item is looked at: 8,000 inline organizers are one cheap 400.
  @MaxItems(LIMITS.listItems, { mode: 'references' })
  venue?: unknown;

  @ApiPropertyOptional({
    description: d('organizer'),
    type: 'array',
    items: { type: 'integer' },
    default: null,
    maxItems: LIMITS.listItems,
  })
  @IsOptional()
  @Allow()
  // Counted before any item is looked at: 8,000 inline organizers are one cheap 400.
  @MaxItems(LIMITS.listItems, { mode: 'references' })
  organizer?: unknown;

  /** CONTRACT §6: sets the record's password ('' removes it). */
  @ApiPropertyOptional({
    description: d('password_set'),
    type: 'string',
    maxLength: LIMITS.password,
  })
  @IsOptional()
  @IsStringType()
  @MaxChars(LIMITS.password)
  password?: string;

  /**
   * The event's series (CONTRACT §9), `{rules, exdates, rdates}` in RFC 5545 terms (local dates of the
   * event's zone); an empty object removes it. Read and bounded by the service (common/recurrence).
   */
  @ApiPropertyOptional({
    description: d('recurrence'),
    type: 'object',
    nullable: true,
    properties: {
      rules: { type: 'array', items: { type: 'string' }, maxItems: RECURRENCE_LIMITS.rules },
      exdates: { type: 'array', items: { type: 'string' }, maxItems: RECURRENCE_LIMITS.dates },
      rdates: { type: 'array', items: { type: 'string' }, maxItems: RECURRENCE_LIMITS.dates },
    },
  })
  @IsOptional()
  @Allow()
  recurrence?: unknown;

  /** CONTRACT §5: the new event joins the translations of this event (create only). */
  @ApiPropertyOptional(TRANSLATION_OF_DOC)
  @IsTranslationOf()
  translation_of?: number;
}
