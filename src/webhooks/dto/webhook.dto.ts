import { OptionalBoolean, OptionalPositiveInteger } from '../../common/http/field-decorators.js';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsDefined, IsIn, IsOptional, ValidateBy } from 'class-validator';
import { LIMITS } from '../../common/http/limits.js';
import { ToList } from '../../common/http/transforms.js';
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

  @OptionalBoolean(webhookDoc('include_private'), { default: false })
  include_private?: boolean;

  @OptionalBoolean(webhookDoc('active'), { default: true })
  active?: boolean;
}

/** Updates are partial (CONTRACT §6): only the fields given change. */
export class UpdateWebhookDto extends PartialType(CreateWebhookDto) {}

/** `GET /webhooks/{id}/deliveries`: newest first, a page at a time. */
export class ListDeliveriesQuery {
  @OptionalPositiveInteger(webhookDoc('page'), { default: 1 }, { max: 1_000_000 })
  page?: number;

  @OptionalPositiveInteger(webhookDoc('per_page'), { default: 20, maximum: 100 }, { max: 100 })
  per_page?: number;
}
