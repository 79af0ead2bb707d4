import { type ArgumentMetadata, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage, IS_OPTIONAL, ValidationTypes } from 'class-validator';
import { BoundedMemo } from '../bounded-memo.js';
import {
  ApiError,
  invalidParams,
  missingParams,
  t,
  type ApiErrorData,
  type Text,
} from '../errors/api-error.js';
import { hasForbiddenCharacter } from '../text/control-chars.js';
import { exceedsShape } from './json-depth.js';
import { LIMIT_CHECKS } from './limits.js';

/**
 * Validation messages are codes, turned into WordPress reasons here:
 * - `missing` (from `@IsDefined`): the parameter is required → `rest_missing_callback_param`;
 * - `type:<integer|boolean|string|number|array|object>` → "{name} is not of type {type}."
 *   with a `rest_invalid_type` detail, as WordPress's type check reports it;
 * - any other message: an i18n key under `validation.` (default "Invalid parameter.").
 */
export const MISSING = 'missing';
export const typeMessage = (type: string) => `type:${type}`;

/** Limits (limits.ts) are reported as WordPress reports its schema's maxLength / maxItems. */
const LIMIT_CODES = new Map([
  ['too_long', 'rest_too_long'],
  ['too_many_items', 'rest_too_many_items'],
  ['item_too_long', 'rest_too_long'],
]);

/**
 * The reason of a limit message for parameter `name` (`errors.param_too_long`, ...), or null when
 * `message` is no limit message.
 */
function limitReason(message: string, name: string): { code: string; reason: Text } | null {
  const match = /^limit:([a-z_]+):(\d+)$/.exec(message);
  const code = match && LIMIT_CODES.get(match[1]);
  if (!code) return null;
  const max = Number(match[2]);
  // `count` picks the plural form: Romanian says 10 caractere but 100 de caractere.
  return { code, reason: t(`errors.param_${match[1]}`, { name, max, count: max }) };
}

export function toWpValidationError(errors: ValidationError[]): ApiError {
  const missing = errors.filter((e) => Object.keys(e.constraints ?? {}).includes('isDefined'));
  if (missing.length) return missingParams(missing.map((e) => e.property));
  const params: Record<string, Text> = {};
  const details: NonNullable<ApiErrorData['details']> = {};
  for (const error of errors) {
    const [constraint, message] = firstConstraint(error);
    const name = error.property;
    const limit = limitReason(message, name);
    if (limit) {
      params[name] = limit.reason;
      details[name] = { code: limit.code, message: limit.reason, data: { param: name } };
    } else if (message.startsWith('type:')) {
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

/**
 * The first limit that the validation of a nested record (an event's inline venue or organizer)
 * found, reported on the parent parameter with the field's path (`organizer.phone`); null when
 * the record failed for another reason.
 */
export function nestedLimitError(parent: string, errors: ValidationError[]): ApiError | null {
  for (const error of errors) {
    const limit = limitReason(firstConstraint(error)[1], `${parent}.${error.property}`);
    if (limit) {
      return invalidParams(
        { [parent]: limit.reason },
        { [parent]: { code: limit.code, message: limit.reason, data: { param: parent } } },
      );
    }
  }
  return null;
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
  /**
   * class-validator's validate() reads the class's rules synchronously, before its first await:
   * while it does, `validating` names the instance, and only the rules it needs are handed out
   * (narrowedRules).
   */
  protected override validate(
    object: object,
    options?: Parameters<ValidationPipe['validate']>[1],
  ): ReturnType<ValidationPipe['validate']> {
    validating = object;
    try {
      return super.validate(object, options);
    } finally {
      validating = undefined;
    }
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    let input = metadata.type === 'body' ? withoutNulls(value) : value;
    if ((metadata.type === 'body' || metadata.type === 'query') && metadata.metatype) {
      input = checkedEarly(input, metadata.metatype, metadata.type === 'body');
    }
    return super.transform(input, metadata);
  }

  protected override transformPrimitive(value: unknown, metadata: ArgumentMetadata): unknown {
    return metadata.type === 'param' ? value : super.transformPrimitive(value, metadata);
  }
}

interface DtoShape {
  /** Every property with a validator: the ones `whitelist` keeps. */
  declared: Set<string>;
  /** The limit validators (limits.ts LIMIT_CHECKS) with their constraints. */
  limits: Array<{ property: string; name: string; constraints: unknown[] }>;
}

const shapes = new WeakMap<object, DtoShape | null>();

function shapeOf(metatype: NonNullable<ArgumentMetadata['metatype']>): DtoShape | null {
  if (shapes.has(metatype)) return shapes.get(metatype)!;
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(
    metatype,
    undefined as unknown as string,
    false,
    false,
  );
  const shape = metadatas.length
    ? {
        declared: new Set(metadatas.map((m) => m.propertyName)),
        limits: metadatas
          .filter((m) => m.name !== undefined && Object.hasOwn(LIMIT_CHECKS, m.name))
          .map((m) => ({
            property: m.propertyName,
            name: m.name!,
            constraints: (m.constraints ?? []) as unknown[],
          })),
      }
    : null;
  shapes.set(metatype, shape);
  return shape;
}

/**
 * Before class-transformer walks the input (about a microsecond per array item, so 140,000 ids
 * took seconds): drops what `whitelist` would drop anyway, so an undeclared parameter costs
 * nothing, and refuses a value over its limit (CONTRACT §4) at once. The validators still run
 * after the transform and stay authoritative; this only answers the same 400 sooner.
 */
function checkedEarly(
  value: unknown,
  metatype: NonNullable<ArgumentMetadata['metatype']>,
  stored: boolean,
) {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return value;
  const shape = shapeOf(metatype);
  if (!shape) return value;
  const input = value as Record<string, unknown>;
  const errors: ValidationError[] = [];
  for (const { property, name, constraints } of shape.limits) {
    if (!Object.hasOwn(input, property)) continue;
    const message = LIMIT_CHECKS[name](input[property], constraints);
    if (message && !errors.some((e) => e.property === property)) {
      errors.push({ property, constraints: { [name]: message }, children: [] });
    }
  }
  if (errors.length) throw toWpValidationError(errors);
  const declared: Record<string, unknown> = {};
  for (const key of Object.keys(input)) {
    if (!shape.declared.has(key)) continue;
    // Every list has its own limit above; a declared field wider than any list may be is
    // invalid whatever its type, and answered before class-transformer walks it (45,000
    // numbers in a name field cost it a third of a second: found by the fuzzer).
    if (exceedsShape(input[key], Infinity, MAX_FIELD_VALUES)) {
      throw toWpValidationError([{ property: key, constraints: { width: 'too_wide' } }]);
    }
    if (stored) refuseControlCharacters(input[key], key);
    declared[key] = input[key];
  }
  return declared;
}

/**
 * Refuses a written text holding a character no text field stores (control-chars.ts: C0
 * controls but tab, line feed and carriage return, DEL, U+FFFE, U+FFFF), in any string of the
 * field, inline records' fields included (named `venue.city`): CONTRACT §7. Refused rather than
 * stripped, so that nothing an author sent is lost silently. The walk is bounded: exceedsShape
 * has capped the field's values.
 */
function refuseControlCharacters(value: unknown, param: string, path = param): void {
  if (typeof value === 'string') {
    if (!hasForbiddenCharacter(value)) return;
    const found = [...value].find(hasForbiddenCharacter)!;
    const code = `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    throw invalidParams({ [param]: t('validation.control_character', { name: path, code }) });
  }
  if (!value || typeof value !== 'object') return;
  const list = Array.isArray(value);
  for (const [key, item] of Object.entries(value)) {
    refuseControlCharacters(item, param, list ? path : `${path}.${key}`);
  }
}

/** Most nested values one field may hold: 100 inline records of a few dozen fields each. */
const MAX_FIELD_VALUES = 5_000;

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

type Storage = ReturnType<typeof getMetadataStorage>;
type Metadatas = ReturnType<Storage['getTargetValidationMetadatas']>;
const memoized = new WeakSet<Storage>();

/** The instance WpValidationPipe is validating, while class-validator reads its rules. */
let validating: object | undefined;

interface Narrowing {
  /** The properties whose rules all wait for a value: `@IsOptional()` and no `@IsDefined()`. */
  optional: string[];
  /** The rules without those of the optional properties the instance leaves out, by which. */
  narrowed: BoundedMemo<Metadatas>;
}
const narrowings = new WeakMap<Metadatas, Narrowing>();
/** Distinct sets of optional properties left out, kept per class (then made anew). */
const MAX_NARROWED = 256;

/**
 * The rules class-validator needs for `object`: all of `metadatas` but those of the optional
 * properties it leaves out (undefined or null). For each such property class-validator made five
 * arrays and an error object, to find that `@IsOptional()` skips it; an event's create sets 6 of
 * its 40 fields, and this was a tenth of what the create allocated. The answer is the same:
 * an optional property without a value is never validated (`@IsDefined()` is, so a property
 * with it keeps its rules). Nothing is left out of a class whose rules another condition
 * governs (`@ValidateIf`), nor for a stand-in (not an instance of the class).
 */
function narrowedRules(metadatas: Metadatas, object: Record<string, unknown>): Metadatas {
  let narrowing = narrowings.get(metadatas);
  if (!narrowing) {
    const optional = new Set<string>();
    const kept = new Set<string>();
    for (const m of metadatas) {
      if (m.type === ValidationTypes.CONDITIONAL_VALIDATION && m.name === IS_OPTIONAL) {
        optional.add(m.propertyName);
      } else if (
        m.type === ValidationTypes.IS_DEFINED ||
        m.type === ValidationTypes.CONDITIONAL_VALIDATION
      ) {
        kept.add(m.propertyName);
      }
    }
    narrowing = {
      optional: [...optional].filter((property) => !kept.has(property)),
      narrowed: new BoundedMemo(MAX_NARROWED),
    };
    narrowings.set(metadatas, narrowing);
  }
  let key = '';
  for (const property of narrowing.optional) key += object[property] == null ? '0' : '1';
  if (!key.includes('0')) return metadatas;
  return narrowing.narrowed.get(key, () => {
    const absent = new Set(narrowing.optional.filter((_, i) => key[i] === '0'));
    return metadatas.filter((m) => !absent.has(m.propertyName));
  });
}

/**
 * class-validator works a class's validation metadata out again on every validate() call: its own,
 * then every registered class tested as an ancestor, then grouped by property (about 20 µs of an
 * event create with its inline venue, and the garbage of it). The decorators have all run once
 * the application's modules are loaded, so each answer is kept, and every kept answer goes when
 * a decorator registers more (a class defined later, a schema). The answers are the same arrays
 * and objects each time: class-validator only reads them.
 */
export function memoizeValidationMetadata(storage: Storage = getMetadataStorage()): void {
  if (memoized.has(storage)) return;
  memoized.add(storage);
  let targets = new Map<unknown, Map<string, Metadatas>>();
  let grouped = new WeakMap<Metadatas, ReturnType<Storage['groupByPropertyName']>>();
  // The storage's own methods, bound: the replacements below call them on the same storage.
  const targetMetadatas = storage.getTargetValidationMetadatas.bind(storage);
  const groupByProperty = storage.groupByPropertyName.bind(storage);
  const addMetadata = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    targets = new Map();
    grouped = new WeakMap();
    addMetadata(metadata);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    let byOptions = targets.get(target);
    if (!byOptions) targets.set(target, (byOptions = new Map()));
    const key = `${schema}\0${always}\0${strictGroups}\0${groups ? `[${groups.join('\0')}` : ''}`;
    let metadatas = byOptions.get(key);
    if (!metadatas) {
      metadatas = targetMetadatas(target, schema, always, strictGroups, groups);
      byOptions.set(key, metadatas);
    }
    const object = validating;
    return object &&
      !schema &&
      typeof target === 'function' &&
      Object.getPrototypeOf(object) === (target as { prototype: unknown }).prototype
      ? narrowedRules(metadatas, object as Record<string, unknown>)
      : metadatas;
  };
  storage.groupByPropertyName = (metadatas) => {
    let byProperty = grouped.get(metadatas);
    if (!byProperty) {
      byProperty = groupByProperty(metadatas);
      grouped.set(metadatas, byProperty);
    }
    return byProperty;
  };
}

export function createValidationPipe(): ValidationPipe {
  memoizeValidationMetadata();
  return new WpValidationPipe({
    transform: true,
    // Undeclared parameters are ignored, as WordPress ignores them (never an error): checkedEarly
    // drops them before the transform. class-validator's own whitelist would also delete the
    // properties whose rules narrowedRules left out (the DTO's own, undefined, fields).
    whitelist: false,
    forbidNonWhitelisted: false,
    forbidUnknownValues: false,
    stopAtFirstError: true,
    validationError: { target: false, value: false },
    exceptionFactory: (errors) => toWpValidationError(errors),
  });
}
