#!/usr/bin/env node
// The create floor of `npm run bench`: what one machine can do for the benchmark's event create
// when nothing but the database work runs. A bare node:http server that answers each POST with
// the SQL statements the service's create sends (the editor's row, the transaction, the venue-name
// lock, the duplicate-venue check, two ids, the venue, the event, the terms by slug, the links,
// the term counts, the webhooks' outbox row, the commit, the cross-process generation) over a
// mysql2 pool, in the exchanges the service sends them in (src/database/statement-batch.ts: the
// transaction's start with the lock and the check, the links, counts and outbox with the commit),
// then a fixed JSON body of BODY_BYTES. No routing, validation, dates, slugs, mapping or ORM: the service can
// approach this figure but not pass it, so the bench shows the create as a share of it too.
//
//   DATABASE_URL=mariadb://root@127.0.0.1:3306/cal_bench PORT=3935 BODY_BYTES=2400 node bench/create-floor.mjs
//
// MySQL/MariaDB only (the service's SQLite create is one writer at a time in-process anyway).
// Loopback only; stops on SIGTERM.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const mysql = require('mysql2/promise');

const uri = (process.env.DATABASE_URL ?? '').replace(/^mariadb:/, 'mysql:');
if (!uri.startsWith('mysql:')) throw new Error('create-floor needs a MySQL/MariaDB DATABASE_URL');
const port = Number(process.env.PORT ?? 3935);
const answer = JSON.stringify({
  id: 0,
  padding: 'x'.repeat(Math.max(0, Number(process.env.BODY_BYTES ?? 2400) - 20)),
});

const pool = mysql.createPool({ uri, connectionLimit: 10, multipleStatements: true });
const side = await mysql.createConnection({ uri });
pool.on('connection', (c) => c.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'));

const sqlNow = () => new Date().toISOString().slice(0, 19).replace('T', ' ');
const slugOf = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/** The statements of one create of `input` (the bench's body); answers nothing. */
async function create(c, input, login) {
  await c.query(
    'SELECT id, login, email, display_name, role, password_hash, created_at FROM users WHERE login = ? LIMIT 1',
    [login],
  );
  try {
    const venue = input.venue.venue;
    await c.query(
      `START TRANSACTION;
       INSERT INTO write_locks (lock_key) VALUES (SHA2(?, 256)) ON DUPLICATE KEY UPDATE lock_key = lock_key;
       SELECT id FROM venues WHERE language = 'en' AND title = ? ORDER BY id`,
      [`venue:en:${venue}`, venue],
    );
    const [ids] = await c.query(
      "INSERT INTO post_ids (kind) VALUES ('event'), ('venue') RETURNING id, kind",
    );
    const eventId = ids.find((r) => r.kind === 'event').id;
    const venueId = ids.find((r) => r.kind === 'venue').id;
    const now = sqlNow();
    await c.query(
      `INSERT INTO venues (id, author_id, status, title, slug, description, excerpt, password, date, date_utc, modified, modified_utc,
        language, address, city, country, province, state, zip, phone, stateprovince, website, show_map, show_map_link)
       VALUES (?, 1, 'publish', ?, ?, '', '', '', ?, ?, ?, ?, 'en', '', ?, '', '', '', '', '', '', '', 1, 1)`,
      [venueId, venue, slugOf(venue), now, now, now, now, input.venue.city ?? ''],
    );
    const start = '2030-01-01 18:00:00';
    const end = '2030-01-01 20:00:00';
    await c.query(
      `INSERT INTO events (id, author_id, status, title, slug, description, excerpt, password, date, date_utc, modified, modified_utc,
        language, start_date, end_date, start_utc, end_utc, timezone, all_day, cost, currency_symbol, currency_position,
        show_map, show_map_link, hide_from_listings, sticky, featured, venue_id, post_parent)
       VALUES (?, 1, 'publish', ?, ?, '', '', '', ?, ?, ?, ?, 'en', ?, ?, ?, ?, 'UTC', 0, '[]', '', '', 0, 0, 0, 0, 0, ?, 0)`,
      [
        eventId,
        input.title,
        slugOf(input.title),
        now,
        now,
        now,
        now,
        start,
        end,
        start,
        end,
        venueId,
      ],
    );
    const [terms] = await c.query(
      `SELECT id FROM terms WHERE taxonomy = 'cal_events_cat' AND language = 'en' AND slug IN (?)
       UNION ALL SELECT id FROM terms WHERE taxonomy = 'post_tag' AND language = 'en' AND slug IN (?)`,
      [input.categories, input.tags],
    );
    // Marked dispatched: the service's dispatcher must not spend its rounds on the floor's rows.
    const at = Date.now();
    const outboxSql = `INSERT INTO webhook_outbox
         (kind, record_id, action, status, previous_status, language, created_at, traceparent, dispatched_at)
       VALUES ('venue', ?, 'created', 'publish', NULL, 'en', ?, NULL, ?),
         ('event', ?, 'created', 'publish', NULL, 'en', ?, NULL, ?)`;
    const outboxValues = [venueId, at, at, eventId, at, at];
    if (terms.length) {
      await c.query(
        `INSERT INTO event_terms (event_id, term_id, event_status, event_date_utc, event_language) VALUES ?;
         UPDATE terms SET published_count = published_count + 1 WHERE id IN (?) AND language = 'en';
         ${outboxSql};
         COMMIT`,
        [
          terms.map((t) => [eventId, t.id, 'publish', now, 'en']),
          terms.map((t) => t.id),
          ...outboxValues,
        ],
      );
    } else {
      await c.query(`${outboxSql}; COMMIT`, outboxValues);
    }
  } catch (error) {
    await c.query('ROLLBACK');
    throw error;
  }
  await side.query('UPDATE write_generation SET value = value + 1 WHERE id = 1');
}

const server = createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => void answerCreate(req, res, chunks));
});

async function answerCreate(req, res, chunks) {
  let c;
  try {
    const login = Buffer.from((req.headers.authorization ?? '').replace(/^Basic /, ''), 'base64')
      .toString()
      .split(':')[0];
    c = await pool.getConnection();
    await create(c, JSON.parse(Buffer.concat(chunks).toString()), login);
    res.writeHead(201, { 'content-type': 'application/json; charset=UTF-8' }).end(answer);
  } catch (error) {
    res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
  } finally {
    c?.release();
  }
}
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void Promise.allSettled([pool.end(), side.end()]).then(() => process.exit(0));
});
