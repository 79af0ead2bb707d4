import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsDefined, IsIn, IsOptional } from 'class-validator';
import {
  OptionalBoolean,
  OptionalDateTime,
  OptionalInteger,
  OptionalText,
  RequiredDateTime,
  stacked,
} from '../../common/http/field-decorators.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { MISSING } from '../../common/http/validation.js';
import { LIMITS } from '../../common/http/limits.js';
import {
  CostBounds,
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

/** A list of the event's terms or linked posts, given by id (or, for terms, slug or name). */
const listField = (field: string, count: PropertyDecorator) =>
  stacked(
    ApiPropertyOptional({
      description: d(field),
      type: 'array',
      items: { type: 'integer' },
      default: null,
      maxItems: LIMITS.listItems,
    }),
    IsOptional(),
    Allow(),
    count,
  );
const TermsField = (field: string) =>
  listField(field, MaxItems(LIMITS.listItems, { itemChars: LIMITS.termName }));
/** Counted before any item is looked at: 8,000 inline organizers are one cheap 400. */
const LinkedPostsField = (field: string) =>
  listField(field, MaxItems(LIMITS.listItems, { mode: 'references' }));

/** Fields of BEHAVIOR §7.1.1, in the plugin's declaration order (it orders error messages). */
export class CreateEventDto {
  @ApiProperty({ description: d('title'), type: 'string', maxLength: LIMITS.title })
  @IsDefined({ message: MISSING })
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.title)
  title!: string;

  @RequiredDateTime(d('start_date'))
  start_date!: string | number;

  @RequiredDateTime(d('end_date'))
  end_date!: string | number;

  @OptionalInteger(d('author'))
  author?: number;

  @OptionalDateTime(d('date'))
  date?: string | number;

  @OptionalDateTime(d('date_utc'))
  date_utc?: string | number;

  @OptionalText(d('description'), LIMITS.content)
  description?: string;

  @OptionalText(d('slug'), LIMITS.slug)
  slug?: string;

  @OptionalText(d('excerpt'), LIMITS.content)
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

  @OptionalBoolean(d('all_day'), { default: false })
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

  @OptionalBoolean(d('show_map'))
  show_map?: boolean;

  @OptionalBoolean(d('show_map_link'))
  show_map_link?: boolean;

  @OptionalBoolean(d('hide_from_listings'))
  hide_from_listings?: boolean;

  @OptionalBoolean(d('sticky'))
  sticky?: boolean;

  @OptionalBoolean(d('featured'))
  featured?: boolean;

  @TermsField('categories')
  categories?: unknown;

  @TermsField('tags')
  tags?: unknown;

  @LinkedPostsField('venue')
  venue?: unknown;

  @LinkedPostsField('organizer')
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
