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

  @ApiPropertyOptional({
    description: vdoc('description'),
    type: 'string',
    default: null,
    maxLength: LIMITS.content,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.content)
  description?: string;

  @ApiPropertyOptional({ description: vdoc('status'), type: 'string' })
  @IsOptional()
  @IsWritableStatusField()
  status?: WritableStatus;

  /** Declared `string` with truthy semantics (BEHAVIOR §1.3): a JSON boolean is a 400. */
  @ApiPropertyOptional({
    description: vdoc('show_map'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  show_map?: string;

  @ApiPropertyOptional({
    description: vdoc('show_map_link'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  show_map_link?: string;

  @ApiPropertyOptional({
    description: vdoc('address'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  address?: string;

  @ApiPropertyOptional({
    description: vdoc('city'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  city?: string;

  @ApiPropertyOptional({
    description: vdoc('country'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  country?: string;

  @ApiPropertyOptional({
    description: vdoc('province'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  province?: string;

  @ApiPropertyOptional({
    description: vdoc('state'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  state?: string;

  @ApiPropertyOptional({
    description: vdoc('zip'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  zip?: string;

  @ApiPropertyOptional({
    description: vdoc('phone'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  phone?: string;

  @ApiPropertyOptional({
    description: vdoc('stateprovince'),
    type: 'string',
    default: null,
    maxLength: LIMITS.short,
  })
  @IsOptional()
  @IsStringField()
  @MaxChars(LIMITS.short)
  stateprovince?: string;

  @ApiPropertyOptional({
    description: vdoc('website'),
    type: 'string',
    default: null,
    maxLength: LIMITS.url,
  })
  @IsOptional()
  @IsWebsiteField()
  @MaxChars(LIMITS.url)
  website?: string;

  @ApiPropertyOptional({
    description: vdoc('image'),
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
