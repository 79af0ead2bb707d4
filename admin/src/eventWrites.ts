import type { Identifier } from 'react-admin';
import { api } from './api';
import { isOccurrence, type UpdateType } from './occurrence';
import { asSeries } from './recurrence';

/** The fields an event form writes as they are (the payload has more, read-only ones). */
const EVENT_FIELDS = [
  'title',
  'slug',
  'description',
  'excerpt',
  'status',
  'start_date',
  'end_date',
  'all_day',
  'timezone',
  'cost',
  'website',
  'featured',
  'sticky',
  'hide_from_listings',
  'show_map',
  'show_map_link',
  'password',
] as const;

type Data = Record<string, unknown>;
type Row = Data & { id: number };

/** The body of a create or update of an event: the form's values in the API's parameters. */
export function eventBody(data: Data): Data {
  const body: Data = {};
  for (const field of EVENT_FIELDS) if (data[field] !== undefined) body[field] = data[field];
  if (data.venue_id !== undefined) body.venue = data.venue_id ?? 0;
  if (data.organizer_ids !== undefined) body.organizer = data.organizer_ids;
  if (data.category_ids !== undefined) body.categories = data.category_ids;
  if (data.tag_ids !== undefined) body.tags = data.tag_ids;
  if (data.image_url !== undefined) body.image = data.image_url || false;
  // Empty: kept as it is (the console never removes a password or a slug by accident).
  for (const field of ['password', 'slug'] as const) if (!body[field]) delete body[field];
  // A series as the parameter takes it; `{}` ends one (CONTRACT §9).
  if (data.recurrence !== undefined) body.recurrence = asSeries(data.recurrence) ?? {};
  return body;
}

/** What `data` changes of `previous`, as a body (parameters whose value is the same left out). */
function changes(data: Data, previous: Data): Data {
  const before = eventBody(previous);
  return Object.fromEntries(
    Object.entries(eventBody(data)).filter(
      ([key, value]) => JSON.stringify(value) !== JSON.stringify(before[key]),
    ),
  );
}

const wallMs = (sql: string) => Date.parse(`${sql.replace(' ', 'T').slice(0, 19)}Z`);
const shifted = (sql: string, ms: number) =>
  new Date(wallMs(sql) + ms).toISOString().slice(0, 19).replace('T', ' ');

/**
 * "All occurrences" with new dates for one of them: the series moves by as much as that
 * occurrence did (its event read by its slug, which answers it at its first occurrence).
 */
async function moveSeries(body: Data, previous: Data): Promise<Row> {
  const { body: series } = await api<Row>(
    `/events/by-slug/${encodeURIComponent(String(previous.slug))}`,
  );
  const start = String(body.start_date ?? previous.start_date);
  const end = String(body.end_date ?? previous.end_date);
  const startShift = wallMs(start) - wallMs(String(previous.start_date));
  const endShift = wallMs(end) - wallMs(String(previous.end_date));
  const moved = {
    ...body,
    start_date: shifted(String(series.start_date), startShift),
    end_date: shifted(String(series.end_date), endShift),
  };
  return (await api<Row>(`/events/${series.id}`, { method: 'POST', body: JSON.stringify(moved) }))
    .body;
}

/**
 * An update of an event: what changed. For one occurrence (its provisional id), with how it applies (`_tec_update_type`, CONTRACT §9): `single` and `upcoming` answer a new
 * event (its real id); `all` changes the series, moved as a whole when the dates changed.
 */
export async function updateEvent(id: Identifier, data: Data, previous: Data = {}): Promise<Row> {
  const post = async (target: Identifier, body: Data) =>
    (await api<Row>(`/events/${target}`, { method: 'POST', body: JSON.stringify(body) })).body;
  // Only what changed is sent: an unchanged series is not written anew, an image a contributor
  // may not set is not sent back.
  const body = previous.id === undefined ? eventBody(data) : changes(data, previous);
  if (!isOccurrence(id)) return post(id, body);
  const type = (data._tec_update_type as UpdateType | undefined) ?? 'all';
  if (type === 'single') delete body.recurrence;
  const datesChanged = body.start_date !== undefined || body.end_date !== undefined;
  if (type === 'all' && datesChanged && previous.slug) return moveSeries(body, previous);
  return post(id, { ...body, _tec_update_type: type });
}
