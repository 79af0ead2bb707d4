/**
 * `image` as a number: the `id` of an image object this service answered earlier (BEHAVIOR §4.6),
 * given as a JSON number or a string of digits (forms). Anything else is no image id.
 */
export function imageIdOf(value: unknown): number | undefined {
  const id =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,15}$/.test(value)
        ? Number(value)
        : NaN;
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}
