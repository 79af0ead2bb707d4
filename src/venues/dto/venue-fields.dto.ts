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
  IsCoordinateField,
  IsDateTimeField,
  IsImageField,
  IsNameField,
  OptionalTextField,
  IsStringField,
  IsWebsiteField,
  IsWritableStatusField,
  ToAuthor,
  ToCoordinate,
} from '../../linked/linked-validators.js';

const vdoc = resourceDoc('venues');

/**
 * The venue fields of BEHAVIOR §7.4.1, in TEC's declaration order (Single_Venue::CREATE_args), all
 * optional (CONTRACT §6: on update an omitted field keeps its value). `null` counts as omitted,
 * as in WordPress.
 */
export class VenueFieldsDto {
  @ApiPropertyOptional({ description: vdoc('author'), type: 'integer' })
  @IsOptional()
  @ToAuthor()
  @IsAuthorField()
  author?: number;

  @ApiPropertyOptional({ description: vdoc('date'), type: 'string' })
  @IsOptional()
  @IsDateTimeField()
  date?: string;

  @ApiPropertyOptional({ description: vdoc('date_utc'), type: 'string' })
  @IsOptional()
  @IsDateTimeField()
  date_utc?: string;

  @ApiPropertyOptional({ description: vdoc('venue'), type: 'string', maxLength: LIMITS.title })
  @IsNameField()
  @MaxChars(LIMITS.title)
  venue?: string;

  @OptionalTextField(vdoc('description'), LIMITS.content)
  description?: string;

  @ApiPropertyOptional({ description: vdoc('status'), type: 'string' })
  @IsOptional()
  @IsWritableStatusField()
  status?: WritableStatus;

  /** Declared `string` with truthy semantics (BEHAVIOR §1.3): a JSON boolean is a 400. */
  @OptionalTextField(vdoc('show_map'), LIMITS.short)
  show_map?: string;

  @OptionalTextField(vdoc('show_map_link'), LIMITS.short)
  show_map_link?: string;

  @OptionalTextField(vdoc('address'), LIMITS.short)
  address?: string;

  @OptionalTextField(vdoc('city'), LIMITS.short)
  city?: string;

  @OptionalTextField(vdoc('country'), LIMITS.short)
  country?: string;

  @OptionalTextField(vdoc('province'), LIMITS.short)
  province?: string;

  @OptionalTextField(vdoc('state'), LIMITS.short)
  state?: string;

  @OptionalTextField(vdoc('zip'), LIMITS.short)
  zip?: string;

  @OptionalTextField(vdoc('phone'), LIMITS.short)
  phone?: string;

  @OptionalTextField(vdoc('stateprovince'), LIMITS.short)
  stateprovince?: string;

  @OptionalTextField(vdoc('website'), LIMITS.url, IsWebsiteField())
  website?: string;

  @OptionalTextField(vdoc('image'), LIMITS.url, IsImageField())
  image?: string;

  /** CONTRACT §6: sets the post password; `""` removes it. */
  @ApiPropertyOptional({
    description: vdoc('password'),
    type: 'string',
    maxLength: LIMITS.password,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.password)
  password?: string;

  @ApiPropertyOptional({ description: vdoc('geo_lat'), type: 'number' })
  @IsOptional()
  @ToCoordinate()
  @IsCoordinateField(90)
  geo_lat?: number | '';

  @ApiPropertyOptional({ description: vdoc('geo_lng'), type: 'number' })
  @IsOptional()
  @ToCoordinate()
  @IsCoordinateField(180)
  geo_lng?: number | '';
}

/** The update body: the venue fields, and the language to move the venue to (CONTRACT §5). */
export class UpdateVenueDto extends VenueFieldsDto {
  @ApiPropertyOptional(LANGUAGE_DOC)
  @IsContentLanguage()
  language?: Language;
}

/**
 * `POST /venues` and inline venues of events: the same fields, `venue` required, and the venue
 * this one translates (CONTRACT §5).
 */
export class CreateVenueDto extends VenueFieldsDto {
  @ApiProperty({
    description: vdoc('venue'),
    type: 'string',
    required: true,
    maxLength: LIMITS.title,
  })
  @IsDefined({ message: MISSING })
  declare venue: string;

  @ApiPropertyOptional(TRANSLATION_OF_DOC)
  @IsTranslationOf()
  translation_of?: number;
}
