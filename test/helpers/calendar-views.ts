import { DateTime } from 'luxon';

/** A day of a calendar view as its markup shows it. */
export interface ViewDay {
  day: string;
  /** The `href`s of the events it lists, in order. */
  links: string[];
  /** "+N more": N, or 0. */
  more: number;
  /** The address of its day view. */
  dayHref: string;
}

const unescape = (s: string) =>
  s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'");

/**
 * The days of a month, week or day view, read from its markup as a reader (or a scraper) reads
 * it: each day is a `<time datetime="YYYY-MM-DD">` in a link to its day, followed by its events'
 * links and, in a month, "+N more".
 */
export function viewDays(html: string): ViewDay[] {
  const start = html.indexOf('<div class="cal ');
  const end = html.indexOf('<p class="cal-subscribe">');
  const body = html.slice(start, end);
  const chunks = body.split(/<a class="cal-date"|<h2><a /).slice(1);
  return chunks.map((chunk) => {
    const day = /<time datetime="(\d{4}-\d\d-\d\d)">/.exec(chunk)![1];
    const dayHref = unescape(/href="([^"]*)"/.exec(chunk)![1]);
    const list = /<ul class="cal-events">([\s\S]*?)<\/ul>/.exec(chunk)?.[1] ?? '';
    const links = [...list.matchAll(/<a href="([^"]*)"/g)].map((m) => unescape(m[1]));
    const more = /class="cal-more"[^>]*>\+?(?:încă )?(\d+)/.exec(chunk);
    return { day, links, more: more ? Number(more[1]) : 0, dayHref };
  });
}

/** The `href` of the first link whose `rel` or text is given. */
export function linkOf(html: string, rel: string): string | undefined {
  const m = new RegExp(`<a rel="${rel}"[^>]*href="([^"]*)"`).exec(html);
  return m ? unescape(m[1]) : undefined;
}

/**
 * `GET /events` for one day of a site in `zone`: the events whose local start is before the next
 * day's midnight and whose local end is not before the day's, as the strict filters read UTC
 * values in the site's zone.
 */
export function dayQuery(day: string, zone: string): string {
  const midnight = DateTime.fromISO(day, { zone });
  const utc = (dt: DateTime) => dt.toUTC().toFormat('yyyy-MM-dd HH:mm:ss');
  const params = new URLSearchParams({
    strict_dates: 'true',
    starts_before: utc(midnight.plus({ days: 1 })),
    ends_after: utc(midnight.minus({ seconds: 1 })),
    per_page: '50',
  });
  return params.toString();
}

/** The JSON-LD objects of a page. */
// oxlint-disable-next-line typescript/no-explicit-any
export function jsonLdOf(html: string): Array<Record<string, any>> {
  const re = /<script type="application\/ld\+json">([^<]*)<\/script>/g;
  return [...html.matchAll(re)].map((m) => JSON.parse(m[1]) as Record<string, unknown>);
}
