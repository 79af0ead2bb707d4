import { ApiError } from '../common/errors/api-error.js';
import type { RequestContext } from '../common/http/request-context.js';
import { LANGUAGES, type Language } from '../config/config.js';

/** What a page's read of a record came to. */
export type Found<T> =
  | { kind: 'found'; record: T }
  | { kind: 'protected' }
  | { kind: 'missing' }
  | { kind: 'redirect'; location: string };

/** A signed-in reader sees on a page what the API showed them; anyone else published records only. */
export const isPublic = (ctx: RequestContext, record: { status?: string }) =>
  ctx.actor.user !== undefined && ctx.actor.user !== null ? true : record.status === 'publish';

/** A service read as found / protected / missing (any 4xx is "not for this reader"). */
export async function read<T>(load: () => Promise<T>): Promise<Found<T>> {
  try {
    return { kind: 'found', record: await load() };
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) {
      return error.code === 'event-password-protected'
        ? { kind: 'protected' }
        : { kind: 'missing' };
    }
    throw error;
  }
}

/**
 * A read by slug in the reader's language; a slug of another language's record moves the
 * reader to that language's page (slugs are unique per language, CONTRACT §5).
 */
export async function readOrMove<T extends { status?: string }>(
  load: (ctx: RequestContext) => Promise<T>,
  ctx: RequestContext,
  pageIn: (language: Language) => string,
): Promise<Found<T>> {
  const found = await read(() => load(ctx));
  if (found.kind !== 'missing') return found;
  for (const language of LANGUAGES) {
    if (language === ctx.language) continue;
    const other = await read(() => load({ ...ctx, language }));
    if (other.kind === 'protected' || (other.kind === 'found' && isPublic(ctx, other.record))) {
      return { kind: 'redirect', location: pageIn(language) };
    }
  }
  return found;
}

/** Deeper than any category tree a calendar has: such a path names no category. */
export const MAX_CATEGORY_DEPTH = 32;

/** A path segment as a stored slug could be (lower case, percent-encoded), else ''. */
export function slugOf(segment: string): string {
  const lower = segment.toLowerCase();
  return /^[a-z0-9%_.~-]{1,600}$/.test(lower) ? lower : '';
}
