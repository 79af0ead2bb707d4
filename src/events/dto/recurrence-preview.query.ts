import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsDefined, IsOptional } from 'class-validator';
import { OptionalBoolean, RequiredDateTime } from '../../common/http/field-decorators.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { LIMITS } from '../../common/http/limits.js';
import { MISSING } from '../../common/http/validation.js';
import { IsStringType, IsTimezoneOrEmpty, MaxChars } from '../../common/http/validators.js';

const d = resourceDoc('events');

/** The event a series would be, as the form holds it before saving (CONTRACT §9 "Preview"). */
export class RecurrencePreviewQuery {
  @ApiProperty({ description: d('preview.recurrence'), type: 'string' })
  @IsDefined({ message: MISSING })
  @Allow()
  recurrence!: unknown;

  @RequiredDateTime(d('start_date'))
  start_date!: string;

  @RequiredDateTime(d('end_date'))
  end_date!: string;

  @OptionalBoolean(d('all_day'), { default: false })
  all_day?: boolean;

  @ApiPropertyOptional({ description: d('timezone'), type: 'string' })
  @IsOptional()
  @IsStringType()
  @IsTimezoneOrEmpty()
  @MaxChars(LIMITS.timezone)
  timezone?: string;
}
