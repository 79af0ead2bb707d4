// Apart from columns.ts so that code which needs only the timestamp (the CLI's command parser,
// loaded for --help and usage errors) does not load TypeORM: a third of a second per CLI start.

/** The last second formatted (ms since the epoch, whole seconds) and its text. */
let lastSecond = NaN;
let lastText = '';

/**
 * `YYYY-MM-DD HH:MM:SS` in UTC, as the DATETIME columns store it. A write asks for the time a
 * dozen times within the same second: the text of the last second asked is kept. An invalid
 * date throws RangeError as before (NaN is never the kept second).
 */
export const nowUtcSql = (date = new Date()): string => {
  const ms = date.getTime();
  const second = ms - (((ms % 1000) + 1000) % 1000);
  if (second === lastSecond) return lastText;
  const text = date.toISOString().slice(0, 19).replace('T', ' ');
  lastSecond = second;
  lastText = text;
  return text;
};
