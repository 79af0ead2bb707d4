import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Min } from 'class-validator';
import { ToInteger } from '../http/transforms.js';
import { doc } from '../i18n/doc-key.js';

/** `page` and `per_page` of every list route (BEHAVIOR §5.1): positive integers, else 400. */
export class PageQuery {
  @ApiPropertyOptional({ description: doc('common.page'), type: 'integer', default: 1 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  page?: number;

  @ApiPropertyOptional({ description: doc('common.per_page'), type: 'integer', default: 10 })
  @IsOptional()
  @ToInteger()
  @IsInt({ message: 'invalid' })
  @Min(1, { message: 'invalid' })
  per_page?: number;
}
