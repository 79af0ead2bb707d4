import { DateTime } from 'luxon';
import { withoutForbiddenCharacters } from '../common/text/index.js';
import type { Language } from '../config/config.js';
import type { TecEvent } from '../common/payload/tec-payload.js';
import { MAX_FEED_BYTES } from '../feeds/ics.js';
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
  /** The most bytes of the feed (MAX_FEED_BYTES unless said). */
  maxBytes?: number;
}

export interface Rss {
  bytes: Buffer;
  /** How many of the events it holds: the first ones, as many as fit in the bytes. */
  count: number;
}

const utc = (sql: unknown): Date | undefined => {
  if (typeof sql !== 'string' || sql.startsWith('0000')) return undefined;
  const dt = DateTime.fromSQL(sql, { zone: 'utc' });
  return dt.isValid ? dt.toJSDate() : undefined;
};

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text as XML character data or an attribute value, without what XML 1.0 forbids. */
const xml = (text: string) =>
  withoutForbiddenCharacters(text).replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/**
 * Plain text as HTML: feed readers take RSS titles and descriptions as HTML, so a `<` a text
 * shows must reach them as `&lt;` (escaped once more for XML by `xml`), never as markup.
 */
const html = (text: string) => text.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]);

/** A text element whose content is HTML made from plain text. */
const element = (name: string, text: string) => `<${name}>${xml(html(text))}</${name}>`;

/**
 * RSS 2.0 of upcoming events (CONTRACT §7): one item per event with its page, when it takes
 * place and its excerpt. Dates come from the records only, so the same events give the same
 * bytes (lastBuildDate is the newest modification).
 *
 * Every text (the channel's and the items' titles, descriptions, categories) is the record's
 * plain text escaped as HTML and then as XML: a title stored as `&lt;img …&gt;` reaches a
 * reader as the text `<img …>`, never as an element, and no character XML forbids (stored
 * before the rule against them) makes the feed unreadable. Written here rather than with a
 * library that decoded entities back before escaping and put texts in CDATA sections a text
 * could close. Items stop before the one that would take the feed beyond `maxBytes`.
 */
export function buildRss(events: readonly TecEvent[], options: RssOptions): Rss {
  const maxBytes = options.maxBytes ?? MAX_FEED_BYTES;
  let newest: Date | undefined;
  for (const event of events) {
    const modified = utc(event.modified_utc);
    if (modified && (!newest || modified > newest)) newest = modified;
  }
  const head =
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">\n' +
    '    <channel>\n' +
    `        ${element('title', options.title)}\n` +
    `        <link>${xml(options.link)}</link>\n` +
    `        ${element('description', options.description)}\n` +
    `        <lastBuildDate>${(newest ?? new Date(0)).toUTCString()}</lastBuildDate>\n` +
    '        <docs>https://validator.w3.org/feed/docs/rss2.html</docs>\n' +
    '        <generator>cal/events/v1</generator>\n' +
    `        <language>${xml(options.language)}</language>\n` +
    `        <atom:link href="${xml(options.self)}" rel="self" type="application/rss+xml"/>\n`;
  const tail = '    </channel>\n</rss>\n';
  const items: string[] = [];
  let bytes = Buffer.byteLength(head) + Buffer.byteLength(tail);
  for (const event of events) {
    const item = rssItem(event, options);
    const size = Buffer.byteLength(item);
    if (bytes + size > maxBytes) break;
    bytes += size;
    items.push(item);
  }
  return { bytes: Buffer.from(head + items.join('') + tail), count: items.length };
}

function rssItem(event: TecEvent, options: RssOptions): string {
  const language = event.language ?? options.language;
  const link = xml(options.localize(event.url, language));
  const when = eventWhen(event, options.language, options.allDayLabel);
  // The description is HTML: a paragraph for when, one for each line of the excerpt.
  const paragraphs = [when, ...plainText(event.excerpt).split('\n')]
    .filter((line) => line !== '')
    .map((line) => `<p>${html(line)}</p>`)
    .join('');
  const date = utc(event.date_utc) ?? utc(event.modified_utc) ?? new Date(0);
  const categories = event.categories
    .map((c) => `            ${element('category', plainText(c.name))}\n`)
    .join('');
  return (
    '        <item>\n' +
    `            ${element('title', plainText(event.title))}\n` +
    `            <link>${link}</link>\n` +
    `            <guid isPermaLink="false">${link}</guid>\n` +
    `            <pubDate>${date.toUTCString()}</pubDate>\n` +
    `            <description>${xml(paragraphs)}</description>\n` +
    categories +
    '        </item>\n'
  );
}
