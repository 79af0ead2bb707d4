import type { DataProvider, RaRecord } from 'react-admin';
import { api, apiIn, LANGUAGES, type Language } from './api';
import { eventBody, updateEvent } from './eventWrites';

/** The collections of the API the console edits, and the list key of each answer. */
const COLLECTIONS = ['events', 'venues', 'organizers', 'categories', 'tags', 'webhooks'] as const;
type Collection = (typeof COLLECTIONS)[number];

type Row = Record<string, unknown> & { id: number };
const ids = (list: unknown): number[] =>
  Array.isArray(list) ? list.map((item) => Number((item as Row).id)).filter(Number.isFinite) : [];

/**
 * An event as the form edits it: its venue, organizers and terms as ids beside the payload's
 * embedded records, its image as its URL.
 */
/** What a webhook subscription's form writes (the rest of its answer is the server's). */
const WEBHOOK_FIELDS = ['url', 'events', 'language', 'include_private', 'active'] as const;
/** What the forms of categories, tags (no parent) and webhook subscriptions write. */
const WRITABLE: Record<string, readonly string[]> = {
  categories: ['name', 'slug', 'description', 'parent'],
  tags: ['name', 'slug', 'description'],
  webhooks: WEBHOOK_FIELDS,
};

function fromApi(resource: string, row: Row): RaRecord {
  // A category without a parent has parent 0, which is no record to look up.
  if (resource === 'categories') return { ...row, parent: row.parent || null };
  if (resource !== 'events') return row;
  const venue = row.venue as Row | unknown[] | undefined;
  const image = row.image as { url?: string } | false | undefined;
  return {
    ...row,
    venue_id: venue && !Array.isArray(venue) ? venue.id : null,
    organizer_ids: ids(row.organizer),
    category_ids: ids(row.categories),
    tag_ids: ids(row.tags),
    image_url: image && typeof image === 'object' ? (image.url ?? '') : '',
  };
}

/** The body of a create or update: what the form holds, in the API's write parameters. */
function toApi(resource: string, data: Record<string, unknown>): Record<string, unknown> {
  const fields = WRITABLE[resource];
  if (fields)
    return Object.fromEntries(
      fields.flatMap((f) => (f in data ? [[f, f === 'parent' ? (data[f] ?? 0) : data[f]]] : [])),
    );
  if (resource !== 'events') {
    const { id: _id, ...rest } = data;
    return rest;
  }
  return eventBody(data);
}

const query = (params: Record<string, unknown>) => {
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    q.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return q.toString();
};

const forced = (meta: unknown) =>
  (meta as { force?: boolean } | undefined)?.force ? '?force=true' : '';

function collection(resource: string): Collection {
  if (!(COLLECTIONS as readonly string[]).includes(resource)) throw new Error(resource);
  return resource as Collection;
}

/** The events list shows every date unless a filter narrows it (the API shows from now, for two years). */
const listDefaults = (resource: string, filter: Record<string, unknown>) => {
  const { from, until, ...rest } = filter;
  if (resource === 'events')
    return {
      start_date: from ? `${String(from)} 00:00:00` : '1970-01-01 00:00:00',
      end_date: until ? `${String(until)} 23:59:59` : '2100-12-31 23:59:59',
      status: 'any',
      ...rest,
    };
  if (resource === 'venues' || resource === 'organizers') return { status: 'any', ...rest };
  return rest;
};

/** The content language a list is asked in: the filter's, else the console's. */
const languageOf = (filter: Record<string, unknown>): Language | undefined =>
  (LANGUAGES as readonly unknown[]).includes(filter.language)
    ? (filter.language as Language)
    : undefined;

/**
 * react-admin's data provider over the service's REST API (cal/events/v1, WordPress's paging:
 * `page`, `per_page`, totals in the body): every permission, validation, cache and webhook rule
 * of the API applies unchanged.
 */
export const dataProvider: DataProvider = {
  async getList(resource, { pagination, filter }) {
    const name = collection(resource);
    const { page = 1, perPage = 25 } = pagination ?? {};
    const { language, ...rest } = filter ?? {};
    const params: Record<string, unknown> =
      name === 'webhooks' ? {} : { page, per_page: perPage, ...listDefaults(resource, rest) };
    if (name === 'categories' || name === 'tags') params.hide_empty = false;
    const lang = languageOf({ language });
    const path = `/${name}?${query(params)}`;
    const { body } = await (
      lang ? apiIn<Record<string, unknown>>(lang, path) : api<Record<string, unknown>>(path)
    ).catch((error: { status?: number; body?: { code?: string } }) => {
      // A page past the last: the API answers 400, a list shows nothing.
      if (error.status === 400 && error.body?.code === 'rest_invalid_param' && page > 1)
        return { body: { [name]: [], total: 0 } };
      throw error;
    });
    const rows = (body[name] as Row[] | undefined) ?? [];
    return {
      data: rows.map((row) => fromApi(name, row)) as never[],
      total: Number(body.total ?? rows.length),
    };
  },

  async getOne(resource, { id }) {
    const name = collection(resource);
    const { body } = await api<Row>(`/${name}/${id}`);
    return { data: fromApi(name, body) as never };
  },

  async getMany(resource, { ids: wanted }) {
    const name = collection(resource);
    const data = await Promise.all(
      wanted.map((id) => api<Row>(`/${name}/${id}`).then(({ body }) => fromApi(name, body))),
    );
    return { data: data as never[] };
  },

  async getManyReference(resource, { target, id, pagination, filter, sort, meta }) {
    return dataProvider.getList(resource, {
      pagination,
      sort,
      meta,
      filter: { ...filter, [target]: id },
    });
  },

  async create(resource, { data }) {
    const name = collection(resource);
    const { body } = await api<Row>(`/${name}`, {
      method: 'POST',
      body: JSON.stringify(toApi(name, data as Record<string, unknown>)),
    });
    return { data: fromApi(name, body) } as never;
  },

  async update(resource, { id, data, previousData }) {
    const name = collection(resource);
    if (name === 'events') {
      const body = await updateEvent(id, data as Record<string, unknown>, previousData);
      // An occurrence changed alone (or with the following ones) is answered by a new event:
      // react-admin keeps the id it asked for, the new one is `moved_to`.
      return { data: { ...fromApi(name, body), id, moved_to: body.id } } as never;
    }
    const { body } = await api<Row>(`/${name}/${id}`, {
      method: 'POST',
      body: JSON.stringify(toApi(name, data as Record<string, unknown>)),
    });
    return { data: fromApi(name, body) } as never;
  },

  async updateMany(resource, { ids: targets, data }) {
    const name = collection(resource);
    await Promise.all(
      targets.map((id) =>
        api(`/${name}/${id}`, {
          method: 'POST',
          body: JSON.stringify(toApi(name, data as Record<string, unknown>)),
        }),
      ),
    );
    return { data: targets };
  },

  /** A DELETE trashes; with `meta.force`, a record in the trash is deleted for good (CONTRACT §3). */
  async delete(resource, { id, previousData, meta }) {
    const name = collection(resource);
    await api(`/${name}/${id}${forced(meta)}`, { method: 'DELETE' });
    return { data: (previousData ?? { id }) as never };
  },

  async deleteMany(resource, { ids: targets, meta }) {
    const name = collection(resource);
    await Promise.all(
      targets.map((id) => api(`/${name}/${id}${forced(meta)}`, { method: 'DELETE' })),
    );
    return { data: targets };
  },
};
