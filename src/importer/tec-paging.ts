import { digestOf } from './import-map.js';
import { SourceError } from './http-client.js';
import { messages } from './messages.js';
import {
  mapLimit,
  type Collection,
  type ListPage,
  type SourceRecord,
  type TecSource,
} from './tec-source.js';

/** The events list shows only upcoming events unless told otherwise (BEHAVIOR §5.2.3). */
const EVENT_WINDOW = { start_date: '1900-01-01', end_date: '2999-12-31' };
const PER_PAGE = 50;
/** Pages of one list in one language at most (500,000 records): beyond, the source is refused. */
const MAX_PAGES = 10_000;

/**
 * Hands every record of a collection to `onPage`, one page at a time, in every language the
 * source lists separately, each record once. What the source claims is believed only as far as
 * pages really come: numbered paging (a `total_pages`) ends at an empty page or one shorter
 * than those before, link paging at an empty page or no `next_rest_url`; a next link already
 * read is a cycle, a page with nothing new means the source does not page, and a listing
 * longer than MAX_PAGES is refused. Only the ids seen are kept, never the pages.
 */
export async function eachPage(
  source: TecSource,
  collection: Collection,
  options: { concurrency?: number },
  onPage: (records: SourceRecord[]) => Promise<void>,
): Promise<void> {
  const languages = source.languages.length ? source.languages : [undefined];
  const handed = new Set<number>();
  for (const language of languages) {
    const params: Record<string, string | number> = {
      per_page: PER_PAGE,
      page: 1,
      ...(collection === 'events' ? EVENT_WINDOW : {}),
      // Term lists hide unused terms unless told otherwise (BEHAVIOR §5.5).
      ...(collection === 'categories' || collection === 'tags' ? { hide_empty: 0 } : {}),
      ...(language ? { i18n_language: language } : {}),
    };
    const listed = new Set<number>();
    const read = new Set<string>();
    let pages = 0;
    let pageSize = 0;
    /** Takes one page; answers whether paging goes on after it. */
    const take = async (url: string, page: ListPage): Promise<boolean> => {
      if (++pages > MAX_PAGES) throw new SourceError(messages.tooManyPages(collection, MAX_PAGES));
      if (!page.records.length) return false;
      const fresh = page.records.filter((r) => !listed.has(r.id));
      if (!fresh.length) throw new SourceError(messages.pagingRepeats(url, collection));
      for (const record of fresh) listed.add(record.id);
      const records = fresh.filter((r) => !handed.has(r.id));
      for (const record of records) {
        handed.add(record.id);
        // Remember the list's language for sources whose records do not carry one.
        if (language && record.language === undefined) record.language = language;
      }
      await onPage(records);
      const full = page.records.length >= pageSize;
      pageSize = Math.max(pageSize, page.records.length);
      return full;
    };
    const firstUrl = source.url(collection, params);
    read.add(digestOf(firstUrl));
    const first = await source.page(firstUrl, collection);
    if (!(await take(firstUrl, first))) continue;
    if (first.totalPages !== null) {
      // Numbered pages, `concurrency` at a time, as far as full pages come.
      const concurrency = options.concurrency ?? 4;
      let last = 1;
      while (last < first.totalPages) {
        const batch = Array.from(
          { length: Math.min(concurrency, first.totalPages - last) },
          (_, i) => last + 1 + i,
        );
        const urls = batch.map((page) => source.url(collection, { ...params, page }));
        const answers = await mapLimit(urls, concurrency, (url) => source.page(url, collection));
        let goOn = true;
        for (let i = 0; i < answers.length && goOn; i++) goOn = await take(urls[i], answers[i]);
        if (!goOn) break;
        last += batch.length;
      }
    } else {
      // No totals: follow next_rest_url, one page after the other.
      for (let next = first.next; next;) {
        const seen = digestOf(next);
        if (read.has(seen)) throw new SourceError(messages.pagingCycle(next, collection));
        read.add(seen);
        const page = await source.page(next, collection);
        // A short page with a next link still goes on: some sources filter within a page.
        if (!(await take(next, page)) && !page.records.length) break;
        next = page.next;
      }
    }
  }
}
