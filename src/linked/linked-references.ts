/**
 * The shapes an event's `venue` / `organizer` field may take (BEHAVIOR §7.1.3), read without any
 * database access: each reference is an id to link or a set of fields to create (or reuse) a
 * record from. Existence and field validation happen in LinkedEventLinks.planReferences.
 */
export type RawReference = { id: number } | { fields: Record<string, unknown> };

/** The input is not a reference of any accepted form (→ 400 on the field). */
export const INVALID = 'invalid' as const;

/** PHP `empty()`, extended to lists and objects holding only empty values. */
export function isDeepEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (value === '' || value === '0' || value === 0) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.every(isDeepEmpty);
  if (typeof value === 'object') return Object.values(value).every(isDeepEmpty);
  return false;
}

const asId = (value: unknown): number | null => {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value === 'string' && /^\s*\d{1,15}\s*$/.test(value)) {
    const id = Number(value);
    return id > 0 ? id : null;
  }
  return null;
};

function parseItem(item: unknown): RawReference | typeof INVALID | null {
  if (isDeepEmpty(item)) return null;
  if (Array.isArray(item)) return INVALID;
  if (typeof item === 'object') {
    const object = item as Record<string, unknown>;
    // `{ "id": 5 }` links; the other keys are ignored (TEC Linked_Posts: the id wins).
    if (!isDeepEmpty(object.id)) {
      const id = asId(object.id);
      return id === null ? INVALID : { id };
    }
    return { fields: object };
  }
  const id = asId(item);
  return id === null ? INVALID : { id };
}

/**
 * The references of an input, in order, empty ones dropped; `INVALID` when any part has no
 * accepted form. `csv`: a string may list several ids (`"1, 2"`; organizers, a Service
 * extension, BEHAVIOR §7.1.3).
 */
export function parseReferences(
  input: unknown,
  options: { csv: boolean },
): RawReference[] | typeof INVALID {
  let items: unknown[];
  if (Array.isArray(input)) items = input;
  else if (options.csv && typeof input === 'string' && input.includes(',')) {
    items = input.split(',');
  } else items = [input];
  const out: RawReference[] = [];
  for (const item of items) {
    const parsed = parseItem(item);
    if (parsed === INVALID) return INVALID;
    if (parsed) out.push(parsed);
  }
  return out;
}
