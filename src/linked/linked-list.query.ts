import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional } from 'class-validator';
import { LIMITS } from '../common/http/limits.js';
import { ToInteger, ToTruthy } from '../common/http/transforms.js';
import { MaxChars, MaxItems } from '../common/http/validators.js';
import { PageQuery } from '../common/pagination/page-query.dto.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { IsNonEmptyString, IsPostIdField, IsStatusListInput } from './linked-validators.js';

/**
 * `GET /venues` and `GET /organizers` (BEHAVIOR §5.3): the same parameters, each described in
 * the words of its collection.
 */
export function linkedListQuery(collection: 'venues' | 'organizers') {
  const doc = resourceDoc(collection);

  class LinkedListQuery extends PageQuery {
    @ApiPropertyOptional({ description: doc('per_page'), type: 'integer', default: 10 })
    declare per_page?: number;

    @ApiPropertyOptional({ description: doc('search'), type: 'string', maxLength: LIMITS.search })
    @IsOptional()
    @IsNonEmptyString()
    @MaxChars(LIMITS.search)
    search?: string;

    @ApiPropertyOptional({ description: doc('event'), type: 'integer' })
    @IsOptional()
    @ToInteger()
    @IsPostIdField()
    event?: number;

    /** Undeclared type, read "truthy" (BEHAVIOR §1.3): never an error. */
    @ApiPropertyOptional({ description: doc('has_events') })
    @IsOptional()
    @ToTruthy()
    has_events?: boolean;

    @ApiPropertyOptional({ description: doc('only_with_upcoming'), default: false })
    @IsOptional()
    @ToTruthy()
    only_with_upcoming?: boolean;

    /** Checked against the caller by the service (§5.2.5), as the plugin does. */
    @ApiPropertyOptional({ description: doc('list_status'), type: 'string' })
    @IsOptional()
    @IsStatusListInput()
    @MaxItems(LIMITS.listItems, { itemChars: LIMITS.status })
    status?: string | string[];
  }
  return LinkedListQuery;
}
