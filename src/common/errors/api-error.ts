/**
 * A translatable text: an i18n key plus its arguments. Error messages and validation reasons
 * travel as keys and are translated once, by the error filter, into the request's language.
 */
export interface Text {
  key: string;
  args?: Record<string, string | number>;
}

export interface ApiErrorData {
  /** Offending parameter → reason (validation errors). */
  params?: Record<string, Text>;
  /** Structured reasons (`rest_invalid_type`, ...) as WordPress reports them. */
  details?: Record<string, { code: string; message: Text; data: Record<string, unknown> }>;
  [extra: string]: unknown;
}

/**
 * The one exception type of the service: a WordPress/TEC error code, its HTTP status and the
 * message to show (by default `errors.<code>`). WpErrorFilter writes it as
 * `{ code, message, data: { status, ... } }`.
 */
export class ApiError extends Error {
  /** Extra response headers (e.g. `Retry-After` on a 429). */
  readonly headers: Record<string, string> = {};

  constructor(
    readonly code: string,
    readonly status: number,
    readonly data: ApiErrorData = {},
    readonly text: Text = { key: `errors.${code}` },
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export const t = (key: string, args?: Record<string, string | number>): Text => ({ key, args });

export const noRoute = () => new ApiError('rest_no_route', 404);

/** 401 for anonymous callers, 403 for authenticated ones (WordPress `rest_forbidden`). */
export const forbidden = (authenticated: boolean) =>
  new ApiError('rest_forbidden', authenticated ? 403 : 401);

/**
 * 403 for naming another `author` without WordPress's `edit_others_posts` (CONTRACT §2): on
 * create `rest_cannot_create`, on update `rest_cannot_edit`, each with its own message.
 */
export const cannotCreateAs = () => new ApiError('rest_cannot_create', 403);
export const cannotUpdateAs = () => new ApiError('rest_cannot_edit', 403);

/** 400 `rest_invalid_param` for one or more parameters, each with its reason. */
export function invalidParams(params: Record<string, Text>, details: ApiErrorData['details'] = {}) {
  return new ApiError(
    'rest_invalid_param',
    400,
    { params, details },
    t('errors.rest_invalid_param', { params: Object.keys(params).join(', ') }),
  );
}

export const invalidParam = (name: string, reason: Text = t('validation.invalid')) =>
  invalidParams({ [name]: reason });

export function missingParams(names: string[]) {
  return new ApiError(
    'rest_missing_callback_param',
    400,
    { params: Object.fromEntries(names.map((n) => [n, t('validation.missing')])) },
    t('errors.rest_missing_callback_param', { params: names.join(', ') }),
  );
}
