import { Feed } from 'feed';
import { DateTime } from 'luxon';
import type { Language } from '../config/config.js';
import type { EventPayload } from '../feeds/ics.js';
import { plainText } from '../feeds/plain-text.js';
import { eventWhen } from './format.js';

export interface RssOptions {
  title: string;
  /** The page the feed belongs to. */
  link: string;
  /** The feed's own address. */
  self: string;
  description: string;
  language: Language;
  allDayLabel: string;
  /** A record's `url` as a page of its language. */
  localize: (url: unknown, language: Language) => string;
}

const utc = (sql: unknown): Date | undefined => {
  if (typeof sql !== 'string' || sql.startsWith('0000')) return undefined;
  const dt = DateTime.fromSQL(sql, { zone: 'utc' });
  return dt.isValid ? dt.toJSDate() : undefined;
};

/**
 * RSS 2.0 of upcoming events (issue 18 §5): one item per event with its page, when it takes
 * place and its excerpt. Dates come from the records only, so the same events give the same
 * bytes (lastBuildDate is the newest modification).
 */
export function buildRss(events: EventPayload[], options: RssOptions): string {
  let newest: Date | undefined;
  for (const event of events) {
    const modified = utc(event.modified_utc);
    if (modified && (!newest || modified > newest)) newest = modified;
  }
  const feed = new Feed({
    title: options.title,
    id: options.link,
    link: options.link,
    description: options.description,
    language: options.language,
    updated: newest ?? new Date(0),
    generator: 'cal/events/v1',
    feedLinks: { rss: options.self },
    copyright: '',
  });
  for (const event of events) {
    const language = (event.language as Language | undefined) ?? options.language;
    const link = options.localize(event.url, language);
    const when = eventWhen(event, options.language, options.allDayLabel);
    const excerpt = plainText(event.excerpt);
    feed.addItem({
      title: plainText(event.title),
      id: link,
      link,
      date: utc(event.date_utc) ?? utc(event.modified_utc) ?? new Date(0),
      description: excerpt ? `${when}\n${excerpt}` : when,
      category: ((event.categories as EventPayload[] | undefined) ?? []).map((c) => ({
        name: plainText(c.name),
      })),
    });
  }
  return feed.rss2();
}
