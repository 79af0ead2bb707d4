import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsDefined, IsOptional } from 'class-validator';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { LIMITS } from '../../common/http/limits.js';
import { ToBoolean } from '../../common/http/transforms.js';
import { MISSING, typeMessage } from '../../common/http/validation.js';
import {
  IsDateTimeLike,
  IsStringType,
  IsTimezoneOrEmpty,
  MaxChars,
} from '../../common/http/validators.js';

const d = resourceDoc('events');

/** The event a series would be, as the form holds it before saving (CONTRACT §9 "Preview"). */
export class RecurrencePreviewQuery {
  @ApiProperty({ description: d('preview.recurrence'), type: 'string' })
  @IsDefined({ message: MISSING })
  @Allow()
  recurrence!: unknown;

  @ApiProperty({ description: d('start_date'), type: 'string' })
  @IsDefined({ message: MISSING })
  @IsDateTimeLike()
  start_date!: string;

  @ApiProperty({ description: d('end_date'), type: 'string' })
  @IsDefined({ message: MISSING })
  @IsDateTimeLike()
  end_date!: string;

  @ApiPropertyOptional({ description: d('all_day'), type: 'boolean', default: false })
  @IsOptional()
  @ToBoolean()
  @IsBoolean({ message: typeMessage('boolean') })
  all_day?: boolean;

  @ApiPropertyOptional({ description: d('timezone'), type: 'string' })
  @IsOptional()
  @IsStringType()
  @IsTimezoneOrEmpty()
  @MaxChars(LIMITS.timezone)
  timezone?: string;
}
