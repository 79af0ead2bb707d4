import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { LIMITS } from '../../common/http/limits.js';
import { IsNonEmpty, IsStringType, MaxChars } from '../../common/http/validators.js';

const d = resourceDoc('events');

/** `password` opens a protected event (BEHAVIOR §6.1; `""` is a 400). */
export class EventReadQuery {
  @ApiPropertyOptional({ description: d('password'), type: 'string', maxLength: LIMITS.password })
  @IsOptional()
  @IsStringType()
  @IsNonEmpty()
  @MaxChars(LIMITS.password)
  password?: string;
}
