import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import {
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsOptional,
  Max,
  Min,
  ValidateBy,
} from 'class-validator';
import { LIMITS } from '../../common/http/limits.js';
import { ToBoolean, ToInteger, ToList } from '../../common/http/transforms.js';
import { IsStringType, MaxChars, MaxItems } from '../../common/http/validators.js';
import { MISSING, typeMessage } from '../../common/http/validation.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { LANGUAGES, type Language } from '../../config/config.js';
import { EVENT_TYPES } from '../../docs/webhook-event-types.js';
import { isEventType } from '../event-types.js';

/** `webhooks.doc.<key>` in i18n/<lang>/webhooks.json. */
export const webhookDoc = resourceDoc('webhooks');

/** More event types than exist cannot be meant. */
const MAX_EVENT_TYPES = EVENT_TYPES.length;

const IsEventTypeList = () =>
  ValidateBy(
    {
      name: 'isEventTypeList',
      validator: { validate: (v) => Array.isArray(v) && v.every(isEventType) },
    },
    { message: 'validation.webhook_events' },
  );

/** `POST /webhooks`: a subscription (CONTRACT "Webhooks"). */
export class CreateWebhookDto {
  @ApiProperty({ description: webhookDoc('url'), type: 'string', maxLength: LIMITS.url })
  @IsDefined({ message: MISSING })
  @IsStringType()
  @MaxChars(LIMITS.url)
  url!: string;

  @ApiProperty({
    description: webhookDoc('events'),
    type: 'array',
    items: { type: 'string', enum: [...EVENT_TYPES] },
    maxItems: MAX_EVENT_TYPES,
  })
  @IsDefined({ message: MISSING })
  @ToList()
  @IsEventTypeList()
  @ArrayMinSize(1, { message: 'validation.webhook_events' })
  @IsArray({ message: typeMessage('array') })
  @MaxItems(MAX_EVENT_TYPES)
  events!: string[];

  @ApiPropertyOptional({
    description: webhookDoc('language'),
    type: 'string',
    enum: [...LANGUAGES, ''],
  })
  @IsOptional()
  @IsIn([...LANGUAGES, ''], { message: 'invalid' })
  language?: Language | '';

  @ApiPropertyOptional({
    description: webhookDoc('include_private'),
    type: 'boolean',
    default: false,
  })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  include_private?: boolean;

  @ApiPropertyOptional({ description: webhookDoc('active'), type: 'boolean', default: true })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  active?: boolean;
}

/** Updates are partial (CONTRACT §6): only the fields given change. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {}

/** `GET /webhooks/{id}/deliveries`: newest first, a page at a time. */
export class ListDeliveriesQuery {
  @ApiPropertyOptional({ description: webhookDoc('page'), type: 'integer', default: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  @Max(1_000_000, { message: 'invalid' })
  page?: number;

  @ApiPropertyOptional({
    description: webhookDoc('per_page'),
    type: 'integer',
    default: 20,
    maximum: 100,
  })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  @Max(100, { message: 'invalid' })
  per_page?: number;
}
