// Apart from columns.ts so that code which needs only the timestamp (the CLI's command parser,
// loaded for --help and usage errors) does not load TypeORM: a third of a second per CLI start.

/** `YYYY-MM-DD HH:MM:SS` in UTC, as the DATETIME columns store it. */
export const nowUtcSql = (date = new Date()) => date.toISOString().slice(0, 19).replace('T', ' ');
