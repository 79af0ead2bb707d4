import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsOptional } from 'class-validator';
import { LIMITS } from '../../common/http/limits.js';
import { MISSING } from '../../common/http/validation.js';
import { MaxChars } from '../../common/http/validators.js';
import type { WritableStatus } from '../../posts/post-status.js';
import {
  IsContentLanguage,
  IsTranslationOf,
  LANGUAGE_DOC,
  TRANSLATION_OF_DOC,
} from '../../posts/translation-fields.js';
import type { Language } from '../../config/config.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import {
  IsAuthorField,
  IsDateTimeField,
  IsImageField,
  IsNameField,
  OptionalTextField,
  IsStringField,
  IsWebsiteField,
  IsWritableStatusField,
  ToAuthor,
} from '../../linked/linked-validators.js';

const odoc = resourceDoc('organizers');

/**
 * The organizer fields of BEHAVIOR §7.5, in TEC's declaration order (Single_Organizer::CREATE_args),
 * all optional (CONTRACT §6: on update an omitted field keeps its value).
 */
class OrganizerFieldsDto {
  @ApiPropertyOptional({ description: odoc('author'), type: 'integer', default: null })
  @IsOptional()
  @ToAuthor()
  @IsAuthorField()
  author?: number;

  @ApiPropertyOptional({ description: odoc('date'), type: 'string', default: null })
  @IsOptional()
  @IsDateTimeField()
  date?: string;

  @ApiPropertyOptional({ description: odoc('date_utc'), type: 'string', default: null })
  @IsOptional()
  @IsDateTimeField()
  date_utc?: string;

  @ApiPropertyOptional({ description: odoc('organizer'), type: 'string', maxLength: LIMITS.title })
  @IsNameField()
  @MaxChars(LIMITS.title)
  organizer?: string;

  @OptionalTextField(odoc('description'), LIMITS.content)
  description?: string;

  @ApiPropertyOptional({ description: odoc('status'), type: 'string', default: null })
  @IsOptional()
  @IsWritableStatusField()
  status?: WritableStatus;

  @OptionalTextField(odoc('phone'), LIMITS.short)
  phone?: string;

  @OptionalTextField(odoc('website'), LIMITS.url, IsWebsiteField())
  website?: string;

  /** No e-mail format check, as TEC has none (BEHAVIOR §7.5). */
  @OptionalTextField(odoc('email'), LIMITS.short)
  email?: string;

  @OptionalTextField(odoc('image'), LIMITS.url, IsImageField())
  image?: string;

  /** CONTRACT §6: sets the post password; `""` removes it. */
  @ApiPropertyOptional({
    description: odoc('password'),
    type: 'string',
    maxLength: LIMITS.password,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.password)
  password?: string;
}

/** The update body: the organizer fields, and the language to move it to (CONTRACT §5). */
export class UpdateOrganizerDto extends OrganizerFieldsDto {
  @ApiPropertyOptional(LANGUAGE_DOC)
  @IsContentLanguage()
  language?: Language;
}

/**
 * `POST /organizers` and inline organizers of events: the same fields, `organizer` required, and
 * the organizer this one translates (CONTRACT §5).
 */
export class CreateOrganizerDto extends OrganizerFieldsDto {
  @ApiProperty({
    description: odoc('organizer'),
    type: 'string',
    required: true,
    maxLength: LIMITS.title,
  })
  @IsDefined({ message: MISSING })
  declare organizer: string;

  @ApiPropertyOptional(TRANSLATION_OF_DOC)
  @IsTranslationOf()
  translation_of?: number;
}
