/**
 * What a password-protected record shows to a request that has not unlocked it
 * (BEHAVIOR §4.11): each listed key, wherever it appears (also in nested objects and lists),
 * is replaced by its empty value.
 */
/**
 * The flags every event, venue or organizer carries as true or false (for those of its kind), and
 * a redacted one shows as null: an importer tells a redacted copy by them.
 */
export const REDACTED_FLAGS = [
  'all_day',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
] as const;

const EMPTY_COST = { currency_symbol: '', currency_position: '', currency_code: '', values: [] };

const REPLACEMENTS: Record<string, () => unknown> = {
  ...Object.fromEntries(
    [
      'description',
      'excerpt',
      'cost',
      'website',
      'email',
      'phone',
      'stateprovince',
      'zip',
      'province',
      'country',
      'city',
      'address',
      'virtual_url',
      'virtual_video_source',
    ].map((k) => [k, () => ''] as const),
  ),
  image: () => false,
  ...Object.fromEntries(
    [...REDACTED_FLAGS, 'ticketed', 'is_virtual'].map((k) => [k, () => null] as const),
  ),
  cost_details: () => ({ ...EMPTY_COST }),
  ...Object.fromEntries(
    ['categories', 'tags', 'venue', 'organizer', 'custom_fields'].map(
      (k) => [k, () => []] as const,
    ),
  ),
  geo_lat: () => 0,
  geo_lng: () => 0,
  attendance: () => ({ total_attendees: null, checked_in: null, not_checked_in: null }),
};

export function redactProtected<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => redactProtected(v)) as T;
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = key in REPLACEMENTS ? REPLACEMENTS[key]() : redactProtected(v);
  }
  return out as T;
}
