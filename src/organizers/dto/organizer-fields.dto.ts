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

  @ApiPropertyOptional({
    description: odoc('description'),
    type: 'string',
    default: null,
    maxLength: LIMITS.content,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.content)
  description?: string;

  @ApiPropertyOptional({ description: odoc('status'), type: 'string', default: null })
  @IsOptional()
  @IsWritableStatusField()
  status?: WritableStatus;

  @ApiPropertyOptional({
    description: odoc('phone'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  phone?: string;

  @ApiPropertyOptional({
    description: odoc('website'),
    type: 'string',
    default: null,
    maxLength: LIMITS.url,
  })
  @IsOptional()
  @IsWebsiteField()
  @MaxChars(LIMITS.url)
  website?: string;

  /** No e-mail format check, as TEC has none (BEHAVIOR §7.5). */
  @ApiPropertyOptional({
    description: odoc('email'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  email?: string;

  @ApiPropertyOptional({
    description: odoc('image'),
    type: 'string',
    default: null,
    maxLength: LIMITS.url,
  })
  @IsOptional()
  @IsImageField()
  @MaxChars(LIMITS.url)
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
