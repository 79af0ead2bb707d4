import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import type { Language } from '../../config/config.js';
import { IsContentLanguage, LANGUAGE_DOC } from '../../common/posts/translation-fields.js';
import { CreateEventDto } from './create-event.dto.js';

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
}
