import { HttpClient, isRefusal, refusal, SourceError, type HttpAnswer } from './http-client.js';
import { messages } from './messages.js';

/** The REST roots tried at a site's origin (no index found): the plugin's namespace first. */
const NAMESPACES = ['tribe/events/v1', 'cal/events/v1'] as const;
/**
 * The namespaces in the order a WordPress REST index is read: `cal/events/v1` is this service's
 * own (WordPress with the plugin never lists it), and another instance lists both; its own
 * namespace keeps a series whole, so it is taken first.
 */
const OWN_FIRST = ['cal/events/v1', 'tribe/events/v1'] as const;
const NAMESPACE_TAIL = /\/(tribe|cal)\/events\/v1\/?$/;

/** Without its trailing slashes (a loop: a `/\/+$/` backtracks quadratically). */
export function trimSlashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '/') end--;
  return text.slice(0, end);
}

/** Runs `fn` over `items`, at most `limit` at a time, results in order. */
export async function mapLimit<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = Array.from({ length: items.length });
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}

const COLLECTIONS = ['categories', 'tags', 'venues', 'organizers', 'events'] as const;
export type Collection = (typeof COLLECTIONS)[number];

export type SourceRecord = Record<string, unknown> & { id: number };

export interface ListPage {
  records: SourceRecord[];
  totalPages: number | null;
  next: string | null;
}

/**
 * A REST root of the calendar interface: `https://site/wp-json/tribe/events/v1` (or this
 * service's `…/cal/events/v1`), or the `?rest_route=/tribe/events/v1` form of a WordPress without
 * pretty permalinks.
 */
export class TecSource {
  constructor(
    readonly root: string,
    private readonly http: HttpClient,
    /** Languages the source lists separately (from its index); [] when it has none. */
    readonly languages: string[],
  ) {}

  /**
   * The stable name of the source in the import map: the site and the interface, whichever
   * namespace or address form reached it. This service answers the same records under
   * `tribe/events/v1` and `cal/events/v1`, and a plugin site under `/wp-json/…` and
   * `?rest_route=…`: one calendar, one map (else a second run through the other address would
   * create everything again).
   */
  get key(): string {
    const url = new URL(this.root);
    let base = url.searchParams.has('rest_route')
      ? trimSlashes(url.pathname)
      : trimSlashes(url.pathname.replace(NAMESPACE_TAIL, ''));
    if (base.endsWith('/index.php')) base = base.slice(0, -'/index.php'.length);
    if (base.endsWith('/wp-json')) base = base.slice(0, -'/wp-json'.length);
    return `${url.origin}${base} events/v1`;
  }

  url(path: string, params: Record<string, string | number> = {}): string {
    const url = new URL(this.root);
    const route = url.searchParams.get('rest_route');
    if (route !== null) {
      url.searchParams.set('rest_route', `${trimSlashes(route)}/${path}`);
    } else {
      url.pathname = `${trimSlashes(url.pathname)}/${path}`;
    }
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
    return url.toString();
  }

  get origin(): string {
    return new URL(this.root).origin;
  }

  /**
   * One record read singly with `context=edit`, which opens a password-protected record to an
   * account that may edit it (BEHAVIOR §4.11); null when the source does not give it.
   */
  async unlocked(collection: Collection, id: number): Promise<SourceRecord | null> {
    const url = this.url(`${collection}/${id}`, { context: 'edit' });
    const answer = await this.http.get(url);
    if (answer.status !== 200) return null;
    try {
      const body = JSON.parse(answer.text) as unknown;
      return body && typeof body === 'object' && (body as { id?: unknown }).id === id
        ? (body as SourceRecord)
        : null;
    } catch {
      return null;
    }
  }

  async page(url: string, collection: Collection): Promise<ListPage> {
    const answer = await this.http.get(url);
    // Events, venues and organizers answer a page past the last with a 404.
    if (answer.status === 404 && /[?&]page=(?!1(?:&|$))/.test(url)) {
      return { records: [], totalPages: 0, next: null };
    }
    if (isRefusal(answer.status)) throw refusal(answer, url, this.http.withCredentials);
    if (answer.status !== 200) {
      throw new SourceError(messages.httpStatus(url, answer.status));
    }
    const page = parseListPage(answer.text, answer.headers, collection, url);
    if (page.next !== null && new URL(page.next).origin !== this.origin) {
      throw new SourceError(messages.foreignNext(page.next, this.origin));
    }
    return page;
  }
}

/**
 * One list page as the source answered it: its records, the page count it claims and the next
 * page's address (absolute; null when absent or unreadable). Records are only checked to be
 * objects with an id; what they hold is record-mapping's business.
 */
export function parseListPage(
  text: string,
  headers: Pick<HttpAnswer['headers'], 'get'>,
  collection: Collection,
  url: string,
): ListPage {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new SourceError(messages.notJson(url));
  }
  const list =
    body && typeof body === 'object' ? (body as Record<string, unknown>)[collection] : undefined;
  if (!Array.isArray(list)) throw new SourceError(messages.noList(url, collection));
  const envelope = body as Record<string, unknown>;
  const header = headers.get('x-tec-totalpages') ?? headers.get('x-wp-totalpages');
  const claimed =
    typeof envelope.total_pages === 'number'
      ? envelope.total_pages
      : header !== null && /^\d{1,15}$/.test(header)
        ? Number(header)
        : null;
  let next: string | null = null;
  if (typeof envelope.next_rest_url === 'string') {
    try {
      const target = new URL(envelope.next_rest_url, url);
      if (target.protocol === 'http:' || target.protocol === 'https:') next = target.toString();
    } catch {
      next = null;
    }
  }
  return {
    records: list.filter(
      (r): r is SourceRecord =>
        !!r && typeof r === 'object' && Number.isSafeInteger((r as { id?: unknown }).id),
    ),
    totalPages: claimed !== null && Number.isSafeInteger(claimed) && claimed >= 0 ? claimed : null,
    next,
  };
}

/**
 * Finds the calendar's REST root from what the user typed: a REST root itself (`…/tribe/events/v1`
 * or `…/cal/events/v1`), a WordPress REST index (`…/wp-json/`), or a site address, through
 * WordPress discovery (`Link: <…>; rel="https://api.w.org/"`) and then `/wp-json/`. This service
 * without `BASE_PATH` serves `cal/events/v1` at its origin, tried last.
 */
export async function discover(input: string, http: HttpClient): Promise<TecSource> {
  let start: URL;
  try {
    start = new URL(input);
  } catch {
    throw new SourceError(messages.notHttpAddress(input));
  }
  if (start.protocol !== 'http:' && start.protocol !== 'https:') {
    throw new SourceError(messages.notHttpAddress(input));
  }
  const tried: string[] = [];
  const restRoute = start.searchParams.get('rest_route');
  if (NAMESPACE_TAIL.test(start.pathname) || (restRoute && NAMESPACE_TAIL.test(restRoute))) {
    return withLanguages(trimSlashes(start.toString()), http);
  }

  const indexes: string[] = [];
  const site = await http.get(start.toString(), 'text/html, application/json');
  if (isRefusal(site.status)) throw refusal(site, start.toString(), http.withCredentials);
  const link = apiLink(site.headers.get('link'));
  if (link) indexes.push(new URL(link, start).toString());
  const looksLikeIndex = /\/wp-json\/?$/.test(start.pathname) || restRoute === '/';
  if (looksLikeIndex) indexes.unshift(start.toString());
  const origin = `${start.origin}${trimSlashes(start.pathname)}`;
  indexes.push(`${origin}/wp-json/`);
  for (const index of indexes) {
    tried.push(index);
    const answer = await http.get(index);
    if (isRefusal(answer.status)) throw refusal(answer, index, http.withCredentials);
    if (answer.status !== 200) continue;
    const namespaces = namespacesOf(answer.text);
    // Another instance of this service lists the plugin's namespace too, whose payloads show one
    // event per occurrence of a series: its own namespace keeps rules and exclusions.
    const ns = OWN_FIRST.find((n) => namespaces.includes(n));
    if (ns) return withLanguages(namespaceRoot(index, ns), http);
  }
  // This service serves its own namespace at the origin when BASE_PATH is empty.
  for (const ns of NAMESPACES) {
    const root = `${origin}/${ns}`;
    tried.push(root);
    const answer = await http.get(`${root}/`);
    if (isRefusal(answer.status)) throw refusal(answer, `${root}/`, http.withCredentials);
    if (answer.status === 200 && isNamespaceIndex(answer.text)) return withLanguages(root, http);
  }
  throw new SourceError(messages.noCalendarFound(input, tried));
}

function namespaceRoot(index: string, ns: string): string {
  const url = new URL(index);
  if (url.searchParams.has('rest_route')) {
    url.searchParams.set('rest_route', `/${ns}`);
    return url.toString();
  }
  url.pathname = `${trimSlashes(url.pathname)}/${ns}`;
  return trimSlashes(url.toString());
}

/** The `rel="https://api.w.org/"` target of a Link header. */
export function apiLink(header: string | null): string | null {
  if (!header) return null;
  for (const part of header.split(',')) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /rel="?https:\/\/api\.w\.org\/"?/.test(match[2])) return match[1];
  }
  return null;
}

function namespacesOf(text: string): string[] {
  try {
    const body = JSON.parse(text) as { namespaces?: unknown };
    return Array.isArray(body.namespaces) ? body.namespaces.map(String) : [];
  } catch {
    return [];
  }
}

function isNamespaceIndex(text: string): boolean {
  try {
    const body = JSON.parse(text) as { namespace?: unknown; routes?: unknown };
    return typeof body.namespace === 'string' && NAMESPACES.some((n) => n === body.namespace);
  } catch {
    return false;
  }
}

/**
 * The languages the source lists separately: the `i18n_language` values its index declares (this
 * service; CONTRACT §5). A site of the plugin without them is read in its one language.
 */
async function withLanguages(root: string, http: HttpClient): Promise<TecSource> {
  const probe = new TecSource(root, http, []);
  const answer = await http.get(probe.url(''));
  if (isRefusal(answer.status)) throw refusal(answer, probe.url(''), http.withCredentials);
  if (answer.status !== 200) {
    throw new SourceError(messages.notRestRoot(probe.url(''), answer.status));
  }
  const languages = new Set<string>();
  try {
    const body = JSON.parse(answer.text) as { routes?: Record<string, unknown> };
    for (const route of Object.values(body.routes ?? {})) {
      const endpoints = (route as { endpoints?: Array<{ args?: Record<string, unknown> }> })
        .endpoints;
      for (const endpoint of endpoints ?? []) {
        const arg = endpoint.args?.i18n_language as { enum?: unknown } | undefined;
        if (Array.isArray(arg?.enum)) arg.enum.forEach((l) => languages.add(String(l)));
      }
    }
  } catch {
    throw new SourceError(messages.notRestRootJson(probe.url('')));
  }
  return new TecSource(root, http, [...languages]);
}
