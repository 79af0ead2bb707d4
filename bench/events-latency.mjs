#!/usr/bin/env node
// Seeds a calendar of N events (default 10,000) with venues, organizers, categories and tags
// straight into the database, starts the built server on it, and measures the latency of the
// default events list and of a combined filter (category + venue + date range + search).
//
//   npm run build && node bench/events-latency.mjs [--events 10000] [--requests 200]
//   DATABASE_URL=mariadb://root@127.0.0.1:3306/cal_bench node bench/events-latency.mjs
//
// Loopback only, bounded: it sends --requests requests per scenario, one at a time, and stops.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(
  process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
);
const EVENTS = Number(args.events ?? 10000);
const REQUESTS = Number(args.requests ?? 200);
const PORT = Number(args.port ?? 3917);
const DATABASE_URL =
  process.env.DATABASE_URL ?? `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-bench-')), 'bench.sqlite')}`;
const VENUES = Math.max(10, Math.round(EVENTS / 20));
const ORGANIZERS = Math.max(5, Math.round(EVENTS / 50));
const CATEGORIES = 50;
const TAGS = 200;

const pad = (n) => String(n).padStart(2, '0');
const sql = (d) => `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;

async function openDb() {
  if (DATABASE_URL.startsWith('sqlite:')) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(DATABASE_URL.slice('sqlite:'.length));
    return {
      kind: 'sqlite',
      async exec(q, params = []) { db.prepare(q).run(...params); },
      async many(table, columns, rows) {
        const stmt = db.prepare(`INSERT INTO ${table} (${columns.join(',')}) VALUES (${columns.map(() => '?').join(',')})`);
        db.transaction((all) => all.forEach((r) => stmt.run(...r)))(rows);
      },
      async close() { db.close(); },
    };
  }
  const { createConnection } = await import('mysql2/promise');
  const url = new URL(DATABASE_URL.replace(/^mariadb:/, 'mysql:'));
  const conn = await createConnection({
    host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || 'root'),
    password: decodeURIComponent(url.password), database: url.pathname.slice(1), charset: 'utf8mb4',
  });
  return {
    kind: 'mysql',
    async exec(q, params = []) { await conn.query(q, params); },
    async many(table, columns, rows) {
      for (let i = 0; i < rows.length; i += 1000) {
        await conn.query(`INSERT INTO ${table} (${columns.join(',')}) VALUES ?`, [rows.slice(i, i + 1000)]);
      }
    },
    async close() { await conn.end(); },
  };
}

async function resetMysql() {
  if (DATABASE_URL.startsWith('sqlite:')) return;
  const { createConnection } = await import('mysql2/promise');
  const url = new URL(DATABASE_URL.replace(/^mariadb:/, 'mysql:'));
  const db = url.pathname.slice(1);
  if (!/bench|test/.test(db)) throw new Error('use a database whose name contains "bench" or "test"');
  const conn = await createConnection({ host: url.hostname, port: Number(url.port || 3306), user: decodeURIComponent(url.username || 'root'), password: decodeURIComponent(url.password) });
  await conn.query(`DROP DATABASE IF EXISTS \`${db}\``);
  await conn.query(`CREATE DATABASE \`${db}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await conn.end();
}

function startServer() {
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL, PORT: String(PORT), HOST: '127.0.0.1', SITE_URL: `http://127.0.0.1:${PORT}` },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return child;
}

async function waitHealthy() {
  for (let i = 0; i < 100; i++) {
    try {
      const r = await fetch(`http://127.0.0.1:${PORT}/health`);
      if (r.ok) return;
    } catch { /* not yet */ }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become healthy');
}

async function seed(db) {
  const now = Date.now();
  const rnd = mulberry32(42);
  let id = 0;
  const postIds = [];
  const common = (title, i) => [i, 1, 'publish', title, `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${i}`, `Description of ${title}`, '', '', sql(new Date(now - 86400000 * 30)), sql(new Date(now - 86400000 * 30)), sql(new Date(now)), sql(new Date(now)), null, 'en'];
  const postCols = ['id', 'author_id', 'status', 'title', 'slug', 'description', 'excerpt', 'password', 'date', 'date_utc', 'modified', 'modified_utc', 'image_url', 'language'];
  const venues = [];
  for (let v = 0; v < VENUES; v++) { id++; postIds.push([id, 'venue']); venues.push([...common(`Venue ${v}`, id), `Street ${v}`, `City ${v % 40}`, 'Hungary', '', '', '1000', '', '', '', 1, 1]); }
  const organizers = [];
  for (let o = 0; o < ORGANIZERS; o++) { id++; postIds.push([id, 'organizer']); organizers.push([...common(`Organizer ${o}`, id), '', '', '']); }
  const events = [];
  const eventTerms = [];
  const eventOrganizers = [];
  let probe;
  const words = ['jazz', 'rock', 'folk', 'market', 'lecture', 'workshop', 'festival', 'concert', 'theatre', 'film'];
  for (let e = 0; e < EVENTS; e++) {
    id++;
    postIds.push([id, 'event']);
    // Spread over two years: a quarter in the past, the rest ahead.
    const start = new Date(now + Math.round((rnd() * 730 - 180) * 86400000));
    start.setUTCMinutes(0, 0, 0);
    const end = new Date(start.getTime() + 2 * 3600000);
    const word = words[Math.floor(rnd() * words.length)];
    const venue = venues[Math.floor(rnd() * venues.length)][0];
    events.push([...common(`${word} event ${e}`, id), sql(start), sql(end), sql(start), sql(end), 'UTC', 0, '["10"]', '', '', null, 0, 0, 0, 0, rnd() < 0.1 ? 1 : 0, venue, 0]);
    const cat = 1 + Math.floor(rnd() * CATEGORIES);
    // The combined-filter scenario asks for category-3 at the venue of an upcoming category-3 event.
    if (cat === 3 && !probe && start.getTime() > now + 86400000) probe = { venue, date: sql(start).slice(0, 10) };
    const published = sql(new Date(now - 86400000 * 30));
    eventTerms.push([id, cat, 'publish', published], [id, CATEGORIES + 1 + Math.floor(rnd() * TAGS), 'publish', published]);
    eventOrganizers.push([id, organizers[Math.floor(rnd() * organizers.length)][0], 0]);
  }
  const terms = [];
  for (let c = 1; c <= CATEGORIES; c++) terms.push([c, 'cal_events_cat', `Category ${c}`, `category-${c}`, '', 0, 'en']);
  for (let t = 1; t <= TAGS; t++) terms.push([CATEGORIES + t, 'post_tag', `Tag ${t}`, `tag-${t}`, '', 0, 'en']);
  await db.many('post_ids', ['id', 'kind'], postIds);
  await db.many('venues', [...postCols, 'address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince', 'website', 'show_map', 'show_map_link'], venues);
  await db.many('organizers', [...postCols, 'phone', 'website', 'email'], organizers);
  await db.many('events', [...postCols, 'start_date', 'end_date', 'start_utc', 'end_utc', 'timezone', 'all_day', 'cost', 'currency_symbol', 'currency_position', 'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'venue_id', 'post_parent'], events);
  await db.many('terms', ['id', 'taxonomy', 'name', 'slug', 'description', 'parent', 'language'], terms);
  await db.many('event_terms', ['event_id', 'term_id', 'event_status', 'event_date_utc'], eventTerms);
  await db.many('event_organizers', ['event_id', 'organizer_id', 'position'], eventOrganizers);
  return probe;
}

function mulberry32(a) {
  return () => { a |= 0; a = (a + 0x6d2b79f5) | 0; let t = Math.imul(a ^ (a >>> 15), 1 | a); t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t; return ((t ^ (t >>> 14)) >>> 0) / 4294967296; };
}

async function measure(name, path) {
  const url = `http://127.0.0.1:${PORT}${path}`;
  const first = await fetch(url);
  const body = await first.json();
  if (!first.ok) throw new Error(`${name}: ${first.status} ${JSON.stringify(body)}`);
  const times = [];
  const started = performance.now();
  for (let i = 0; i < REQUESTS; i++) {
    const t0 = performance.now();
    const r = await fetch(url);
    await r.arrayBuffer();
    times.push(performance.now() - t0);
  }
  const elapsed = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(1);
  return { name, total: body.total, items: body.events?.length, p50: q(0.5), p99: q(0.99), rps: (REQUESTS / elapsed).toFixed(0) };
}

const db0 = DATABASE_URL.startsWith('sqlite:') ? null : await resetMysql();
void db0;
let server = startServer();
await waitHealthy(); // runs the migrations
server.kill();
await new Promise((r) => server.once('exit', r));
const db = await openDb();
const t0 = performance.now();
const { venue, date } = await seed(db);
await db.close();
console.log(`seeded ${EVENTS} events, ${VENUES} venues, ${ORGANIZERS} organizers, ${CATEGORIES + TAGS} terms in ${((performance.now() - t0) / 1000).toFixed(1)} s (${DATABASE_URL.split(':')[0]})`);
server = startServer();
try {
  await waitHealthy();
  const results = [
    await measure('default list', '/cal/events/v1/events'),
    await measure('combined filter', `/cal/events/v1/events?categories=category-3&venue=${venue}&start_date=${date}&end_date=%2B2%20years&search=event`),
    await measure('combined filter (no venue)', '/cal/events/v1/events?categories=category-3,category-4&starts_after=yesterday&ends_before=%2B1%20year&search=jazz&per_page=50'),
  ];
  console.log(`\n| scenario | total | items | p50 ms | p99 ms | req/s (sequential) |\n|---|---|---|---|---|---|`);
  for (const r of results) console.log(`| ${r.name} | ${r.total} | ${r.items} | ${r.p50} | ${r.p99} | ${r.rps} |`);
} finally {
  server.kill();
}
