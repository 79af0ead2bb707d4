import { DateTime } from 'luxon';
import { formatSql, parseDateTime } from '../common/dates/index.js';
import type { PostStatus } from '../auth/post-policy.js';
import type { ListExtensions } from '../extensions/seams.js';

/**
 * The events archive query (BEHAVIOR §5.2) as plain data: what the repository turns into SQL.
 * Date bounds are local wall clocks compared with each event's local start/end (§1.7).
 */
export interface EventFilters {
  /** local start >= */
  startDate?: string;
  /** local end <= */
  endDate?: string;
  /** local start < */
  startsBefore?: string;
  /** local start > */
  startsAfter?: string;
  /** local end < */
  endsBefore?: string;
  /** local end > */
  endsAfter?: string;
  search?: SearchTerms;
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  statuses: PostStatus[];
  include?: number[];
  postParent?: number;
  /**
   * The list parameters of the extension surface in force (docs/extending.md): geolocation's
   * (`geoloc`, `geoloc_lat` + `geoloc_lng`, CONTRACT §6) and the modules'.
   */
  extensions?: ListExtensions['applied'];
  /** `series=once` (CONTRACT §9): each recurring event once, at its first listed occurrence. */
  seriesOnce?: boolean;
}

export interface SearchTerms {
  include: string[];
  exclude: string[];
}

export interface DateParams {
  start_date?: string;
  end_date?: string;
  starts_before?: string;
  starts_after?: string;
  ends_before?: string;
  ends_after?: string;
  strict_dates?: string;
}

export interface DateWindow {
  bounds: Pick<
    EventFilters,
    'startDate' | 'endDate' | 'startsBefore' | 'startsAfter' | 'endsBefore' | 'endsAfter'
  >;
  /** The normalised values echoed in `rest_url`. */
  echo: Record<string, string>;
}

/** `strict_dates`: `1`, `true`, `on`, `yes` (any case) mean true, anything else false (§5.2.1). */
export const isStrict = (value: string | undefined) =>
  !!value && /^(1|true|on|yes)$/i.test(value.trim());

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
const BOUND_OF = {
  starts_before: 'startsBefore',
  starts_after: 'startsAfter',
  ends_before: 'endsBefore',
  ends_after: 'endsAfter',
} as const;

/**
 * The date window of BEHAVIOR §5.2.3/§5.2.4. `presentInQuery` names the parameters the query
 * string carried (defaults are dropped when a relative filter is used); `include` requests ignore
 * start_date/end_date entirely (Service D2).
 */
export function dateWindow(
  params: DateParams,
  presentInQuery: ReadonlySet<string>,
  opts: { siteZone: string; now: Date; include: boolean },
): DateWindow {
  const strict = isStrict(params.strict_dates);
  const { siteZone, now } = opts;
  const utc = (value: string) => parseDateTime(value, 'UTC', now);
  // Inclusive mode works on calendar days of the value as parsed in UTC.
  const dayStart = (value: string) => `${utc(value)!.toFormat('yyyy-MM-dd')} 00:00:00`;
  const dayEnd = (value: string) => `${utc(value)!.toFormat('yyyy-MM-dd')} 23:59:59`;
  // Strict mode reads the value as UTC and expresses it in the site zone, keeping the time.
  const strictValue = (value: string) => formatSql(utc(value)!.setZone(siteZone));

  const bounds: DateWindow['bounds'] = {};
  const echo: Record<string, string> = {};
  const usesRelative = RELATIVE.some((name) => presentInQuery.has(name));

  if (!opts.include) {
    const applyStart = params.start_date !== undefined || !usesRelative;
    const applyEnd = params.end_date !== undefined || !usesRelative;
    // A bound given is read as the mode says; one not given is the mode's default.
    const bound = (
      given: string | undefined,
      day: (value: string) => string,
      fallback: typeof defaultStart,
    ) =>
      given !== undefined
        ? strict
          ? strictValue(given)
          : day(given)
        : fallback(strict, siteZone, now);
    if (applyStart) {
      bounds.startDate = bound(params.start_date, dayStart, defaultStart);
      echo.start_date = bounds.startDate;
    }
    if (applyEnd) {
      bounds.endDate = bound(params.end_date, dayEnd, defaultEnd);
      echo.end_date = bounds.endDate;
    }
  }
  for (const name of RELATIVE) {
    const value = params[name];
    if (value === undefined) continue;
    // TEC: starts_after in inclusive mode means "after the end of that day" (§5.2.4).
    const bound = strict ? strictValue(value) : dayEnd(value);
    bounds[BOUND_OF[name]] = bound;
    echo[name] = bound;
  }
  return { bounds, echo };
}

/**
 * The defaults depend on the clock to the second at most, and parsing "yesterday 23:59" on
 * every list request was a visible share of its CPU time: the last answers are kept for the
 * second they were computed in.
 */
function perSecond(
  compute: (strict: boolean, siteZone: string, now: Date) => string,
): (strict: boolean, siteZone: string, now: Date) => string {
  const last = new Map<string, string>();
  let second = NaN;
  return (strict, siteZone, now) => {
    const s = Math.floor(now.getTime() / 1000);
    if (s !== second) {
      last.clear();
      second = s;
    }
    const key = `${strict ? 1 : 0}${siteZone}`;
    let value = last.get(key);
    if (value === undefined) last.set(key, (value = compute(strict, siteZone, now)));
    return value;
  };
}

const defaultStart = perSecond(computeDefaultStart);
const defaultEnd = perSecond(computeDefaultEnd);

/** The list's `start_date`/`end_date` when a request gives neither (inclusive mode, §5.2.3). */
export function defaultWindow(siteZone: string, now: Date) {
  return {
    start_date: defaultStart(false, siteZone, now),
    end_date: defaultEnd(false, siteZone, now),
  };
}

/** Inclusive default: 00:00:00 of the site-local date of the instant "yesterday 23:59" UTC. */
function computeDefaultStart(strict: boolean, siteZone: string, now: Date): string {
  if (strict) return formatSql(parseDateTime('yesterday 23:59', siteZone, now)!);
  const instant = parseDateTime('yesterday 23:59', 'UTC', now)!.setZone(siteZone);
  return `${instant.toFormat('yyyy-MM-dd')} 00:00:00`;
}

/** Inclusive default: 23:59:59 of the UTC date of now + 24 months; strict: now + 24 months. */
function computeDefaultEnd(strict: boolean, siteZone: string, now: Date): string {
  if (strict) return formatSql(DateTime.fromJSDate(now).setZone(siteZone).plus({ months: 24 }));
  const later = DateTime.fromJSDate(now, { zone: 'utc' }).plus({ months: 24 });
  return `${later.toFormat('yyyy-MM-dd')} 23:59:59`;
}

/**
 * WordPress search terms: words split on whitespace, a double-quoted phrase is one word, a word
 * starting with `-` must not occur.
 */
export function parseSearch(search: string): SearchTerms | undefined {
  const include: string[] = [];
  const exclude: string[] = [];
  for (const match of search.matchAll(/"([^"]*)"|(\S+)/g)) {
    let word = (match[1] ?? match[2] ?? '').trim();
    if (!word) continue;
    const negative = match[2] !== undefined && word.startsWith('-') && word.length > 1;
    if (negative) word = word.slice(1);
    (negative ? exclude : include).push(word);
  }
  return include.length || exclude.length ? { include, exclude } : undefined;
}

/**
 * A coordinate parameter (`geoloc_lat`, `geoloc_lng`): a decimal number as WordPress's
 * `is_numeric` reads it (surrounding spaces, a sign, a fraction, an exponent), else undefined.
 */
export function parseCoordinate(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : undefined;
}
