import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import { map, type Observable } from 'rxjs';
import { queryString } from '../http/links.js';

export interface Page {
  page: number;
  perPage: number;
  offset: number;
}

/** `per_page` above MAX_PER_PAGE is cut to it, as the plugin does (never an error). */
export function pageOf(query: { page?: number; per_page?: number }, maxPerPage: number): Page {
  const page = query.page ?? 1;
  const perPage = Math.min(query.per_page ?? 10, maxPerPage);
  // A page far past any data (page=9223372036854775807) must not overflow the SQL OFFSET (a 500
  // "datatype mismatch" on SQLite, found by test/fuzz.e2e-spec.ts): any offset beyond
  // MAX_SAFE_INTEGER rows is as empty.
  return { page, perPage, offset: Math.min((page - 1) * perPage, Number.MAX_SAFE_INTEGER) };
}

type EnvelopeLayout = 'posts' | 'terms';

export interface ArchiveInput<T> {
  /** Items key: `events`, `venues`, `organizers`, `categories`, `tags`. */
  key: string;
  items: T[];
  total: number;
  page: Page;
  /** `{base}/events` — the collection URL, without the trailing slash. */
  collectionUrl: string;
  /** The effective query echoed in the links (page/per_page are added here). */
  query: Record<string, string | number | undefined>;
  layout: EnvelopeLayout;
}

/**
 * A list answer: the envelope of BEHAVIOR §5.1 plus the totals that ArchiveHeadersInterceptor
 * turns into `X-TEC-Total` / `X-TEC-TotalPages`.
 */
export class Archive<T = unknown> {
  constructor(
    readonly body: Record<string, unknown>,
    readonly total: number,
    readonly totalPages: number,
    /** The page's records, typed, as the body lists them under its key. */
    readonly items: readonly T[],
  ) {}
}

export function buildArchive<T>(input: ArchiveInput<T>): Archive<T> {
  const { page, total } = input;
  const totalPages = total === 0 ? 0 : Math.ceil(total / page.perPage);
  const link = (p: number | undefined) =>
    `${input.collectionUrl}/?${queryString({ ...input.query, page: p, per_page: page.perPage })}`;
  const restUrl = link(page.page);
  const next = page.page < totalPages ? link(page.page + 1) : undefined;
  // `previous_rest_url` of page 2 has no `page` parameter (BEHAVIOR §5.1).
  const prevPage = page.page - 1;
  const hasPrev =
    page.page > 1 && (input.layout === 'terms' || (prevPage >= 1 && prevPage <= totalPages));
  const previous = hasPrev ? link(prevPage > 1 ? prevPage : undefined) : undefined;
  const links = {
    ...(next && { next_rest_url: next }),
    ...(previous && { previous_rest_url: previous }),
  };
  const body =
    input.layout === 'posts'
      ? { [input.key]: input.items, rest_url: restUrl, ...links, total, total_pages: totalPages }
      : { rest_url: restUrl, total, total_pages: totalPages, [input.key]: input.items, ...links };
  return new Archive(body, total, totalPages, input.items);
}

/** Writes the list totals as headers, on every list answer (BEHAVIOR §5.1). */
@Injectable()
export class ArchiveHeadersInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    return next.handle().pipe(
      map((result: unknown) => {
        if (!(result instanceof Archive)) return result;
        const res = context.switchToHttp().getResponse<Response>();
        res.setHeader('X-TEC-Total', String(result.total));
        res.setHeader('X-TEC-TotalPages', String(result.totalPages));
        return result.body;
      }),
    );
  }
}
