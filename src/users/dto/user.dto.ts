import { OptionalPositiveInteger } from '../../common/http/field-decorators.js';
import { ApiProperty, ApiPropertyOptional, PartialType } from '@nestjs/swagger';
import { IsDefined, IsOptional, ValidateBy, type ValidationOptions } from 'class-validator';
import { ToList } from '../../common/http/transforms.js';
import { IsStringType, MaxChars, MaxItems } from '../../common/http/validators.js';
import { MISSING, typeMessage } from '../../common/http/validation.js';
import { resourceDoc } from '../../common/i18n/doc-key.js';
import { isRole, ROLES } from '../../common/roles.js';
import { MIN_PASSWORD_LENGTH, passwordLength } from '../../config/passwords.js';
import {
  isEmail,
  LOGIN,
  MAX_APPLICATION_PASSWORD_NAME,
  MAX_DISPLAY_NAME,
} from '../../auth/users/users.service.js';

/** `users.doc.<key>` in i18n/<lang>/users.json. */
export const userDoc = resourceDoc('users');

/** A console password longer than anyone types (the login form's bound): refused before hashing. */
const MAX_PASSWORD = 1000;
/** The column's width (users.email). */
const MAX_EMAIL = 100;
const MAX_LOGIN = 60;

/** A check with its reason (a `validation.` key) and the reason's arguments. */
const check = (
  name: string,
  validate: (value: unknown) => boolean,
  message: string,
  context: Record<string, string | number> = {},
  options?: ValidationOptions,
) => ValidateBy({ name, validator: { validate } }, { message, context, ...options });

const IsLogin = () =>
  check('isLogin', (v) => typeof v !== 'string' || LOGIN.test(v), 'validation.user_login', {
    max: MAX_LOGIN,
    count: MAX_LOGIN,
  });
const IsUserEmail = () =>
  check(
    'isUserEmail',
    (v) => typeof v !== 'string' || v === '' || isEmail(v),
    'validation.user_email',
  );
/** WordPress's `roles` is a list; a user here has one role, so the list names exactly one. */
const IsOneRole = () =>
  check(
    'isOneRole',
    (v) => Array.isArray(v) && v.length === 1 && isRole(v[0]),
    'validation.user_roles',
    { roles: ROLES.join(', ') },
  );
const IsChosenPassword = () =>
  check(
    'isChosenPassword',
    (v) => typeof v !== 'string' || passwordLength(v) >= MIN_PASSWORD_LENGTH,
    'validation.user_password',
    { count: MIN_PASSWORD_LENGTH },
  );

/**
 * `POST /users` (CONTRACT §2 "Users"): WordPress's `/wp/v2/users` fields. `password` is the
 * console password (the API's application passwords are made at their own route).
 */
export class CreateUserDto {
  @ApiProperty({ description: userDoc('username'), type: 'string', maxLength: MAX_LOGIN })
  @IsDefined({ message: MISSING })
  @IsStringType()
  @MaxChars(MAX_LOGIN)
  @IsLogin()
  username!: string;

  @ApiPropertyOptional({
    description: userDoc('name'),
    type: 'string',
    maxLength: MAX_DISPLAY_NAME,
  })
  @IsOptional()
  @IsStringType()
  @MaxChars(MAX_DISPLAY_NAME)
  name?: string;

  @ApiPropertyOptional({
    description: userDoc('email'),
    type: 'string',
    format: 'email',
    maxLength: MAX_EMAIL,
  })
  @IsOptional()
  @IsStringType()
  @MaxChars(MAX_EMAIL)
  @IsUserEmail()
  email?: string;

  @ApiPropertyOptional({
    description: userDoc('roles'),
    type: 'array',
    items: { type: 'string', enum: [...ROLES] },
    maxItems: 1,
    default: ['subscriber'],
  })
  @IsOptional()
  @ToList()
  @IsOneRole()
  @MaxItems(ROLES.length)
  roles?: string[];

  @ApiPropertyOptional({
    description: userDoc('password'),
    type: 'string',
    format: 'password',
    minLength: MIN_PASSWORD_LENGTH,
    maxLength: MAX_PASSWORD,
  })
  @IsOptional()
  @IsStringType()
  @MaxChars(MAX_PASSWORD)
  @IsChosenPassword()
  password?: string;
}

/**
 * `POST|PUT|PATCH /users/{id}`: what is given changes. `username` may be sent only unchanged
 * (WordPress: "Username isn't editable").
 */
export class UpdateUserDto extends PartialType(CreateUserDto) {}

/** `GET /users`: a page at a time, oldest first. */
export class ListUsersQuery {
  @OptionalPositiveInteger(
    userDoc('page'),
    { default: 1 },
    { max: 1_000_000, notInteger: typeMessage('integer') },
  )
  page?: number;

  @OptionalPositiveInteger(
    userDoc('per_page'),
    { default: 10, maximum: 100 },
    { max: 100, notInteger: typeMessage('integer') },
  )
  per_page?: number;
}

/** `POST /users/{id}/application-passwords`: WordPress's `name` (required) and `app_id`. */
export class CreateApplicationPasswordDto {
  @ApiProperty({
    description: userDoc('app_password_name'),
    type: 'string',
    maxLength: MAX_APPLICATION_PASSWORD_NAME,
  })
  @IsDefined({ message: MISSING })
  @IsStringType()
  @MaxChars(MAX_APPLICATION_PASSWORD_NAME)
  @check('isNonBlank', (v) => typeof v !== 'string' || v.trim() !== '', 'validation.invalid')
  name!: string;
}
