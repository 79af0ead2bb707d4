import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(import.meta.dirname, '..', 'src');

/** The events module's tables: SQL naming them lives under `src/events/` (their owner). */
const EVENT_TABLES = ['events', 'event_occurrences', 'event_organizers', 'event_terms'];
const TABLE = EVENT_TABLES.join('|');

/** SQL text naming a table (`FROM events`), or a query builder given it (`.from('events')`). */
const NAMES_EVENT_TABLE = new RegExp(
  `\\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\\s+[\`"]?(?:${TABLE})\\b|` +
    `\\.(?:from|into|update|delete|\\w*[jJ]oin\\w*)\\(\\s*['"\`](?:${TABLE})['"\`]`,
);

/** A query run: raw SQL, a query builder, a repository made, or an entity manager's own call. */
const RUNS_QUERY =
  /\.query\(|\bcreateQueryBuilder\(|\bgetRepository\(|\bmanager\.(?:find\w*|update|delete|insert|save|count\w*|exist\w*|upsert|increment|decrement|remove)\(/;

/** Where queries run: repositories, SQL builders, stores, and the database floor itself. */
const QUERY_HOME = /(?:\.repository|-sql|[.-]store)\.ts$|^database\//;

/**
 * Known exceptions, each with its reason: the test fails when one goes away unannounced (take
 * it off the list) as much as when a new one comes. None names the events' tables: terms and
 * linked records reach them through ports the events module gives (events/term-links-sql.ts,
 * events/linked-usage-sql.ts).
 */
const TABLE_EXCEPTIONS: Record<string, string> = {};

const QUERY_EXCEPTIONS: Record<string, string> = {
  // The import map's own table (import_map), queried beside the importer.
  'importer/import-map.ts': 'import_map',
};

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The code without its comments (a comment may name a table; only code runs it). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

const FILES = sources(SRC).map((path) => ({
  file: relative(SRC, path).split('\\').join('/'),
  code: code(readFileSync(path, 'utf8')),
}));

const matching = (pattern: RegExp) => FILES.filter((f) => pattern.test(f.code)).map((f) => f.file);

describe('table owners (issue 47)', () => {
  it('recognises what it looks for (the scan cannot pass by seeing nothing)', () => {
    const tables = [
      "await manager.query('DELETE FROM event_terms WHERE term_id = ?', [id]);",
      'SELECT MIN(date_utc) AS d FROM events WHERE status = ?',
      "qb.subQuery().select('1').from('events', 'e')",
      "sub.innerJoin('event_organizers', 'eo', 'eo.event_id = e.id')",
      'UPDATE `event_occurrences` SET x = 1',
    ];
    expect(tables.filter((line) => !NAMES_EVENT_TABLE.test(line))).toEqual([]);
    const notTables = ["progress.start('events', n)", 'FROM eventsx', "tags.push('events')"];
    expect(notTables.filter((line) => NAMES_EVENT_TABLE.test(line))).toEqual([]);
    const queries = ["this.db.query('SELECT 1')", 'manager.findOne(X, {})', 'createQueryBuilder()'];
    expect(queries.filter((line) => !RUNS_QUERY.test(line))).toEqual([]);
    // The owner itself is seen naming its tables and running queries.
    expect(
      matching(NAMES_EVENT_TABLE).filter((f) => f.startsWith('events/')).length,
    ).toBeGreaterThan(2);
    expect(matching(RUNS_QUERY).filter((f) => QUERY_HOME.test(f)).length).toBeGreaterThan(10);
  });

  it('names the events tables in SQL only under src/events/', () => {
    const outside = matching(NAMES_EVENT_TABLE).filter((f) => !f.startsWith('events/'));
    expect(outside.sort()).toEqual(Object.keys(TABLE_EXCEPTIONS).sort());
  });

  it('runs queries only in repositories, SQL builders, stores and the database floor', () => {
    const outside = matching(RUNS_QUERY).filter((f) => !QUERY_HOME.test(f));
    expect(outside.sort()).toEqual(Object.keys(QUERY_EXCEPTIONS).sort());
  });
});
