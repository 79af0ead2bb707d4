// The load of issue 53's memory scenario, shared by bench/memory.mjs and
// test/ops/memory.e2e-spec.ts: events created through the API by a few editors' clients at once,
// then anonymous reads of every kind (list pages and filters, single events, public pages, the
// iCalendar feed).

const API = '/cal/events/v1';
const WINDOW = 'start_date=2089-12-01&end_date=2091-01-01';

/** Event `i`'s day in 2090. */
const day = (i) =>
  `2090-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;

/**
 * Creates `count` events through `origin`'s API as `auth`, `clients` requests at a time: every
 * tenth with a venue of its own, each in one of 8 categories with 2 of 20 tags. Answers their
 * slugs; a create that is not answered 201 throws.
 */
export async function createMemoryEvents(origin, auth, count, clients = 4) {
  const slugs = [];
  let next = 0;
  async function create() {
    for (let i = next++; i < count; i = next++) {
      const res = await fetch(`${origin}${API}/events`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          title: `Memory event ${i}`,
          description: `<p>${'Árvíztűrő tükörfúrógép, the description. '.repeat(20)}</p>`,
          start_date: `${day(i)} 10:00:00`,
          end_date: `${day(i)} 12:00:00`,
          venue: i % 10 === 0 ? { venue: `Memory hall ${i}`, city: 'Szeged' } : undefined,
          categories: [`Memory category ${i % 8}`],
          tags: [`memory-tag-${i % 20}`, `memory-tag-${(i + 3) % 20}`],
          cost: String(i % 30),
        }),
      });
      if (res.status !== 201) throw new Error(`create ${i}: ${res.status} ${await res.text()}`);
      slugs.push((await res.json()).slug);
    }
  }
  await Promise.all(Array.from({ length: clients }, create));
  return slugs;
}

/**
 * The paths the readers ask for: `pages` list pages, the category and tag filters, a search, the
 * other lists, the first `records` events by slug and as public pages, the home page and feeds.
 */
export function memoryReadPaths(slugs, { pages, records }) {
  return [
    ...Array.from({ length: pages }, (_, p) => `${API}/events?${WINDOW}&page=${p + 1}`),
    ...Array.from(
      { length: 8 },
      (_, c) => `${API}/events?${WINDOW}&categories=memory-category-${c}`,
    ),
    ...Array.from(
      { length: 20 },
      (_, t) => `${API}/events?${WINDOW}&tags=memory-tag-${t}&per_page=20`,
    ),
    `${API}/events?${WINDOW}&search=memory`,
    `${API}/venues`,
    `${API}/categories`,
    `${API}/tags?per_page=50`,
    ...slugs.slice(0, records).map((slug) => `${API}/events/by-slug/${slug}`),
    ...slugs.slice(0, records).map((slug) => `/event/${slug}/`),
    '/',
    '/feed',
    `${API}/events.ics?${WINDOW}`,
  ];
}

/**
 * `readers` anonymous clients at once, each reading the path `pick` gives until it gives none;
 * an answer other than 200 throws.
 */
export async function readMemoryPaths(origin, readers, pick) {
  async function read() {
    for (let path = pick(); path !== undefined; path = pick()) {
      const res = await fetch(`${origin}${path}`);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
    }
  }
  await Promise.all(Array.from({ length: readers }, read));
}
