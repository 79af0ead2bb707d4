import { OptionalPositiveId, OptionalTermText, TermText } from './term-fields.js';
import { ApiHideProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { Allow, IsDefined } from 'class-validator';
import type { Language } from '../../config/config.js';
import { LIMITS } from '../../common/http/limits.js';
import { MISSING } from '../../common/http/validation.js';
import {
  IsContentLanguage,
  IsTranslationOf,
  LANGUAGE_DOC,
} from '../../posts/translation-fields.js';
import { DocumentProperties, writeDocs } from './term-docs.js';

/**
 * Fields of a category or tag write (BEHAVIOR §7.6): non-empty strings (the plugin's `is_string`
 * validator runs before the type check, so a number is "Invalid parameter." too).
 */
class CreateTermDto {
  @IsDefined({ message: MISSING })
  @TermText(LIMITS.termName)
  name!: string;

  /** `""` is rejected: a description cannot be cleared (BEHAVIOR §7.6). */
  @OptionalTermText(LIMITS.content)
  description?: string;

  @OptionalTermText(LIMITS.slug)
  slug?: string;

  /** CONTRACT §5: the new term joins the translations of this term of the same taxonomy. */
  @IsTranslationOf()
  translation_of?: number;
}

/** Categories add `parent`: an existing category id (checked by the service), never `0`. */
@DocumentProperties(writeDocs('category'))
export class CreateCategoryDto extends CreateTermDto {
  @OptionalPositiveId()
  parent?: number;
}

/**
 * Tags do not declare `parent`, yet the plugin passes it on to the WordPress terms controller,
 * which answers `rest_taxonomy_not_hierarchical` (after the permission check). It is kept here,
 * undocumented and unvalidated, so that the service can give that answer.
 */
@DocumentProperties(writeDocs('tag'))
export class CreateTagDto extends CreateTermDto {
  @ApiHideProperty()
  @Allow()
  parent?: unknown;
}

/**
 * Updates are partial (CONTRACT §6): every field optional, only given ones change. A term joins
 * translations only when created; an update may move it to another language instead (§5).
 */
export class UpdateCategoryDto extends PartialType(
  OmitType(CreateCategoryDto, ['translation_of'] as const),
) {
  @ApiPropertyOptional(LANGUAGE_DOC)
  @IsContentLanguage()
  language?: Language;
}

export class UpdateTagDto extends PartialType(OmitType(CreateTagDto, ['translation_of'] as const)) {
  @ApiPropertyOptional(LANGUAGE_DOC)
  @IsContentLanguage()
  language?: Language;
}
