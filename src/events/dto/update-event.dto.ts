import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import type { Language } from '../../config/config.js';
import { IsContentLanguage, LANGUAGE_DOC } from '../../posts/translation-fields.js';
import { IsIn, IsOptional } from 'class-validator';
import { CreateEventDto } from './create-event.dto.js';

const UPDATE_TYPES = ['all', 'single', 'upcoming'] as const;
type UpdateType = (typeof UPDATE_TYPES)[number];

/**
 * Every field optional; updates are partial on POST, PUT and PATCH (CONTRACT §6). An event joins
 * translations only when created; an update may move it to another language instead (§5).
 */
export class UpdateEventDto extends PartialType(
  OmitType(CreateEventDto, ['translation_of'] as const),
) {
  @ApiPropertyOptional(LANGUAGE_DOC)
  @IsContentLanguage()
  language?: Language;

  /**
   * BEHAVIOR §15: how an edit of an occurrence (by its provisional id) applies: `all` the series,
   * `single` this occurrence alone (it becomes an event of its own), `upcoming` this one and
   * the rest (a new series).
   */
  @ApiPropertyOptional({
    description: 'events.doc.update_type',
    type: 'string',
    enum: UPDATE_TYPES,
    default: 'all',
  })
  @IsOptional()
  @IsIn(UPDATE_TYPES, { message: 'validation.update_type' })
  _tec_update_type?: UpdateType;
}
