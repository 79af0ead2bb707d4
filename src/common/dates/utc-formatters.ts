/**
 * Intl formatters cost about 190 µs each to create on Node 24 (ICU loads the locale's patterns)
 * and a microsecond to use: one per format and locale, for the process. A format is one of its
 * callers' module constants (the key is the object), a locale one of the few the languages map to;
 * past MAX_FORMATS formats or MAX_LOCALES locales a formatter is made for the call and not kept (a
 * bound, whatever the callers pass).
 */
const MAX_FORMATS = 64;
const MAX_LOCALES = 16;

const formatters = new Map<Intl.DateTimeFormatOptions, Map<string, Intl.DateTimeFormat>>();

/** The formatter of `format` in `locale`, on UTC wall clocks (the callers' dates are UTC). */
export function utcFormatter(
  locale: string,
  format: Readonly<Intl.DateTimeFormatOptions>,
): Intl.DateTimeFormat {
  let ofFormat = formatters.get(format);
  if (!ofFormat && formatters.size < MAX_FORMATS) formatters.set(format, (ofFormat = new Map()));
  let found = ofFormat?.get(locale);
  if (!found) {
    found = new Intl.DateTimeFormat(locale, { ...format, timeZone: 'UTC' });
    if (ofFormat && ofFormat.size < MAX_LOCALES) ofFormat.set(locale, found);
  }
  return found;
}
