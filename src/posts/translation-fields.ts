import { applyDecorators } from '@nestjs/common';
import type { ApiPropertyOptions } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Min } from 'class-validator';
import { LANGUAGES } from '../config/config.js';
import { resourceDoc } from '../common/i18n/doc-key.js';
import { ToInteger } from '../common/http/transforms.js';
import { typeMessage } from '../common/http/validation.js';

/**
 * The two write fields of linked translations (CONTRACT §5), the same on all five resources:
 * `translation_of` on create, `language` on update. Documentation and validation are separate so
 * that DTOs documenting their fields in a fixed order (terms) can place the text themselves.
 */
const tdoc = resourceDoc('translations');

export const TRANSLATION_OF_DOC: ApiPropertyOptions = {
  description: tdoc('translation_of'),
  type: 'integer',
  required: false,
};

export const LANGUAGE_DOC: ApiPropertyOptions = {
  description: tdoc('language'),
  type: 'string',
  enum: [...LANGUAGES],
  required: false,
};

/**
 * A positive record id; whether it names a record of the kind is checked by the service.
 * applyDecorators registers its arguments first to last, and the validator reports the first
 * registered check that fails: a non-integer reads "translation_of is not of type integer.".
 */
export const IsTranslationOf = () =>
  applyDecorators(
    IsOptional(),
    ToInteger(),
    IsInt({ message: typeMessage('integer') }),
    Min(1, { message: 'invalid' }),
  );

/** One of the supported languages; whether the record may move there is checked by the service. */
export const IsContentLanguage = () =>
  applyDecorators(IsOptional(), IsIn(LANGUAGES, { message: 'invalid' }));
