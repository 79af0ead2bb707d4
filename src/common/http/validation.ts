import { type ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import {
  ApiError,
  invalidParams,
  missingParams,
  t,
  type ApiErrorData,
  type Text,
} from '../errors/api-error.js';

/**
 * Validation messages are codes, turned into WordPress reasons here:
 * - `missing` (from `@IsDefined`): the parameter is required → `rest_missing_callback_param`;
 * - `type:<integer|boolean|string|number|array|object>` → "{name} is not of type {type}."
 *   with a `rest_invalid_type` detail, as WordPress's type check reports it;
 * - any other message: an i18n key under `validation.` (default "Invalid parameter.").
 */
export const MISSING = 'missing';
export const typeMessage = (type: string) => `type:${type}`;

export function toWpValidationError(errors: ValidationError[]): ApiError {
  const missing = errors.filter((e) => Object.keys(e.constraints ?? {}).includes('isDefined'));
  if (missing.length) return missingParams(missing.map((e) => e.property));
  const params: Record<string, Text> = {};
  const details: NonNullable<ApiErrorData['details']> = {};
  for (const error of errors) {
    const [constraint, message] = firstConstraint(error);
    const name = error.property;
    if (message.startsWith('type:')) {
      const reason = t('validation.type', { name, type: message.slice(5) });
      params[name] = reason;
      details[name] = { code: 'rest_invalid_type', message: reason, data: { param: name } };
    } else if (message.startsWith('validation.')) {
      // A validator's `context` carries the message's other arguments (`{max}` of dates).
      const context = (constraint ? error.contexts?.[constraint] : undefined) as
        Record<string, string | number> | undefined;
      params[name] = t(message, { ...context, name });
    } else {
      params[name] = t('validation.invalid');
    }
  }
  return invalidParams(params, details);
}

/** The first failed constraint's name and message. */
function firstConstraint(error: ValidationError): [string | undefined, string] {
  const own = Object.entries(error.constraints ?? {});
  if (own.length) return own[0];
  // Nested DTOs: report the parent parameter as invalid.
  return [undefined, 'invalid'];
}

/**
 * Path parameters stay strings here: `RouteIdPipe` decides what an `{id}` segment is
 * (`/tags/1e3` is no route, not id 1000).
 */
class WpValidationPipe extends ValidationPipe {
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    return super.transform(metadata.type === 'body' ? withoutNulls(value) : value, metadata);
  }

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}

/**
 * A JSON `null` is an absent parameter, as in WordPress (`get_param()` answers null for both, a
 * required one is missing, an optional one is not validated): `{"title": null}` on an update
 * keeps the title. Without this, `@IsOptional()` lets null through to services that test
 * `!== undefined`, and every optional scalar field answered a 500 for null (found by
 * test/fuzz.e2e-spec.ts). Only top-level values: a null inside a list is the field's business.
 */
function withoutNulls(value: unknown): unknown {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

export function createValidationPipe(): ValidationPipe {
  return new WpValidationPipe({
    transform: true,
    // Undeclared parameters are ignored, as WordPress ignores them (never an error).
    whitelist: true,
    forbidNonWhitelisted: false,
    forbidUnknownValues: false,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toWpValidationError(errors),
  });
}
