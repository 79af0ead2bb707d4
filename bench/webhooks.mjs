#!/usr/bin/env node
// Creates with three active webhook subscriptions against creates without (the target:
// ≥ 0.9 of the rate). Used by `npm run bench` (bench/run.mjs, on the database it seeded), and runnable
// alone on a small calendar of its own:
//
//   npm run build && node bench/webhooks.mjs [--duration S] [--rounds N (4)] [--port P] [--sqlite]
//
// One server (WEBHOOK_ALLOWED_TARGETS=127.0.0.1) and a receiver in a process of its own answering
// 204 on loopback; three subscriptions to every event type. Rounds alternate without (the three
// paused) and with (the three active), after a warm-up, so that the database growing over the
// run weighs on both sides alike. After each round with subscriptions the receiver must get every
// message of that round's creates (two per create, the event and its inline venue, to each
// subscription) before the next round starts: the time that takes is reported as the drain, and
// a backlog never spills into the next round's measure.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createEditor,
  createRequests,
  cpuMs,
  createUser,
  mysqlConnection,
  migrate,
  parseArgs,
  resetDatabase,
  rssMb,
  smokeLoad,
  seed,
  startServer,
  stopServer,
  summarizeProfile,
  waitHealthy,
} from './lib.mjs';

/** The share of the create rate kept with three active subscriptions. */
export const WEBHOOK_CREATE_TARGET = 0.9;
const SUBSCRIPTIONS = 3;
/** Messages per create: the event and its inline venue (its terms exist already). */
const MESSAGES_PER_CREATE = 2;
/** The longest a round's deliveries may take to arrive once its load stops. */
const DRAIN_WITHIN_MS = 120_000;

/**
 * The database server's process when it runs on this machine (MariaDB's `mariadbd`, MySQL's
 * `mysqld`), so that its CPU per create can be read beside the server's; null otherwise.
 */
function localDatabasePid(url) {
  if (url.startsWith('sqlite:')) return null;
  const host = new URL(url).hostname;
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(host)) return null;
  for (const entry of readdirSync('/proc', { withFileTypes: true })) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const name = readFileSync(`/proc/${entry.name}/comm`, 'utf8').trim();
      if (name === 'mariadbd' || name === 'mysqld') return Number(entry.name);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/**
 * The statements the database server has answered so far (MySQL/MariaDB's `Questions`, every
 * client's: the bench's own two per round included), or null on SQLite.
 */
async function statementCounter(url) {
  if (url.startsWith('sqlite:')) return { count: async () => null, end: async () => {} };
  const conn = await mysqlConnection(url, { database: false });
  return {
    count: async () => {
      const [rows] = await conn.query("SHOW GLOBAL STATUS LIKE 'Questions'");
      return Number(rows[0].Value);
    },
    end: () => conn.end(),
  };
}

/**
 * The receiver: a process of its own answering 204 to every POST and counting them (a GET
 * answers the count). A real receiver is elsewhere; one in this process would take its work out
 * of autocannon's event loop, which then sends fewer creates whatever the server does.
 */
const RECEIVER = `
  const { createServer } = require('node:http');
  let received = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET') return res.end(String(received));
    req.resume();
    req.on('end', () => {
      received++;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1', () => process.send(server.address().port));
  process.on('disconnect', () => process.exit(0));
`;

/** A receiver that takes every POST and never answers (each attempt ends at WEBHOOK_TIMEOUT). */
const HANGING = RECEIVER.replace('res.writeHead(204).end();', '');

/** Creates written one after another beside a hanging receiver. */
const HANGING_CREATES = 20;
/** The server's WEBHOOK_TIMEOUT in this bench. */
const TIMEOUT_MS = 5000;

async function startReceiver(program = RECEIVER) {
  const child = spawn(process.execPath, ['-e', program], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    pid: child.pid,
    url: `${origin}/hook`,
    received: async () => Number(await (await fetch(origin)).text()),
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill();
      }),
  };
}

/** A POST to the API as `auth`; throws unless it succeeds. */
async function post(origin, auth, path, body) {
  const res = await fetch(`${origin}/cal/events/v1${path}`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return JSON.parse(text);
}

/**
 * Measures creates without and with three active subscriptions on a server of its own (`port`)
 * over `url`, with the editor `auth`. Returns `{ without, with, ratio, drains }`: rates
 * in req/s per round, the ratio of their means, and each drain in ms.
 */
export async function webhookCreates({
  url,
  port,
  auth,
  duration = 10,
  warmUp = 10,
  rounds = 4,
  connections = 10,
  smoke = false,
  profile = false,
  log = console.log,
}) {
  const receiver = await startReceiver();
  const statements = await statementCounter(url);
  const databasePid = localDatabasePid(url);
  const origin = `http://127.0.0.1:${port}`;
  const profileDir = profile ? mkdtempSync(join(tmpdir(), 'cal-hooks-prof-')) : null;
  const server = startServer(
    url,
    port,
    { WEBHOOK_ALLOWED_TARGETS: '127.0.0.1', WEBHOOK_TIMEOUT: `${TIMEOUT_MS}ms` },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  const load = (label, seconds = duration) => {
    const opts = smoke ? smokeLoad(connections) : { duration: seconds };
    return autocannon({
      connections,
      url: `${origin}/cal/events/v1/events`,
      ...createRequests(auth, `hooks ${label} `),
      ...opts,
    });
  };
  try {
    await waitHealthy(port);
    const admin = createUser(url, `bench-admin-${port}-${Date.now()}`, 'administrator');
    const ids = [];
    for (let i = 0; i < SUBSCRIPTIONS; i++) {
      const created = await post(origin, admin, '/webhooks', {
        url: receiver.url,
        events: ['*'],
        active: false,
      });
      ids.push(created.id);
    }
    const setActive = async (active) => {
      for (const id of ids) await post(origin, admin, `/webhooks/${id}`, { active });
    };
    if (!smoke) {
      // As long as the bench's creates warm up, half without and half with deliveries.
      await load('warm-up a', warmUp / 2);
      await setActive(true);
      await load('warm-up b', warmUp / 2);
    }
    const result = {
      without: [],
      with: [],
      drains: [],
      errors: 0,
      cpu: { without: [], with: [] },
      databaseCpu: { without: [], with: [] },
      receiverCpu: [],
      statements: { without: [], with: [] },
    };
    for (let round = 0; round < rounds; round++) {
      for (const active of [false, true]) {
        await setActive(active);
        // Whatever earlier rounds left is delivered before this one is measured.
        const before = await receiver.received();
        const cpuBefore = cpuMs(server.pid);
        const databaseBefore = databasePid === null ? null : cpuMs(databasePid);
        const receiverBefore = cpuMs(receiver.pid);
        const statementsBefore = await statements.count();
        const r = await load(`${round}${active ? 'w' : 'o'}`);
        result.errors += r.errors + r.non2xx;
        const rps = Math.round(r.requests.average);
        (active ? result.with : result.without).push(rps);
        log(`creates ${active ? 'with' : 'without'} ${SUBSCRIPTIONS} subscriptions: ${rps} req/s`);
        if (active) {
          const expected = before + r['2xx'] * MESSAGES_PER_CREATE * SUBSCRIPTIONS;
          const stopped = Date.now();
          while ((await receiver.received()) < expected) {
            if (Date.now() - stopped > DRAIN_WITHIN_MS) {
              throw new Error(
                `${expected - (await receiver.received())} deliveries missing ${DRAIN_WITHIN_MS} ms after the load stopped`,
              );
            }
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          result.drains.push(Date.now() - stopped);
        }
        // The server's CPU per create, its deliveries' included (they are done by now): what
        // the create rate of a server bound by its CPU depends on, whatever else loads the machine.
        const cpuAfter = cpuMs(server.pid);
        if (cpuBefore !== null && cpuAfter !== null && r['2xx']) {
          (active ? result.cpu.with : result.cpu.without).push((cpuAfter - cpuBefore) / r['2xx']);
        }
        // The database server's and the receiver's share, on this machine: the outbox's rows
        // and the messages cost them too, on the cores the creates need.
        const databaseAfter = databasePid === null ? null : cpuMs(databasePid);
        if (databaseBefore !== null && databaseAfter !== null && r['2xx']) {
          (active ? result.databaseCpu.with : result.databaseCpu.without).push(
            (databaseAfter - databaseBefore) / r['2xx'],
          );
        }
        const receiverAfter = cpuMs(receiver.pid);
        if (active && receiverBefore !== null && receiverAfter !== null && r['2xx']) {
          result.receiverCpu.push((receiverAfter - receiverBefore) / r['2xx']);
        }
        const statementsAfter = await statements.count();
        if (statementsBefore !== null && r['2xx']) {
          (active ? result.statements.with : result.statements.without).push(
            (statementsAfter - statementsBefore) / r['2xx'],
          );
        }
      }
    }
    const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
    result.ratio = mean(result.with) / mean(result.without);
    result.cpuRatio = result.cpu.with.length
      ? mean(result.cpu.without) / mean(result.cpu.with)
      : null;
    log(
      `creates with ${SUBSCRIPTIONS} subscriptions at ${result.ratio.toFixed(2)} of the rate without ` +
        `(target ≥ ${WEBHOOK_CREATE_TARGET}); deliveries drained ${result.drains.join(', ')} ms after each round`,
    );
    if (result.cpuRatio !== null) {
      log(
        `server CPU per create: ${result.cpu.without.map((x) => x.toFixed(2)).join(', ')} ms without, ` +
          `${result.cpu.with.map((x) => x.toFixed(2)).join(', ')} ms with, deliveries included → ` +
          `${result.cpuRatio.toFixed(2)} of the rate by CPU`,
      );
    }
    if (result.databaseCpu.with.length) {
      const ms = (xs) => xs.map((x) => x.toFixed(2)).join(', ');
      log(
        `database server CPU per create: ${ms(result.databaseCpu.without)} ms without, ` +
          `${ms(result.databaseCpu.with)} ms with; the receiver's: ${ms(result.receiverCpu)} ms`,
      );
    }
    if (result.statements.with.length) {
      log(
        `database statements per create: ${result.statements.without.map((x) => x.toFixed(1)).join(', ')} without, ` +
          `${result.statements.with.map((x) => x.toFixed(1)).join(', ')} with, deliveries included`,
      );
    }
    // One receiver that never answers beside the healthy one: the healthy subscriptions'
    // messages must not wait for it (each of its attempts holds only its own slots).
    await setActive(true);
    const hanging = await startReceiver(HANGING);
    try {
      const stuck = await post(origin, admin, '/webhooks', { url: hanging.url, events: ['*'] });
      const before = await receiver.received();
      const started = Date.now();
      for (let i = 0; i < HANGING_CREATES; i++) {
        await post(origin, auth, '/events', {
          title: `hooks hanging ${i}`,
          start_date: '2031-05-01 10:00',
          end_date: '2031-05-01 11:00',
          venue: { venue: `Bench hall hanging ${i}`, city: 'Szeged' },
        });
      }
      const written = Date.now() - started;
      const expected = before + HANGING_CREATES * MESSAGES_PER_CREATE * SUBSCRIPTIONS;
      while ((await receiver.received()) < expected) {
        if (Date.now() - started > DRAIN_WITHIN_MS) {
          throw new Error(`healthy deliveries missing beside a hanging receiver`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      result.hanging = {
        creates: HANGING_CREATES,
        writtenMs: written,
        drainedMs: Date.now() - started - written,
        timeoutMs: TIMEOUT_MS,
      };
      log(
        `beside a receiver that never answers (timeout ${TIMEOUT_MS} ms): ${HANGING_CREATES} creates written in ` +
          `${written} ms, every healthy message ${result.hanging.drainedMs} ms after the last`,
      );
      await post(origin, admin, `/webhooks/${stuck.id}`, { active: false });
    } finally {
      await hanging.stop();
    }
    // The server's resident memory after the run (its dispatcher thread's included).
    result.rssMb = rssMb(server.pid);
    if (result.rssMb !== null) log(`server RSS after the run: ${result.rssMb} MB`);
    return result;
  } finally {
    await statements.end();
    await stopServer(server);
    await receiver.stop();
    if (profileDir) {
      // The whole run's profile (warm-up, rounds without and with, drains): where the server's
      // CPU went, by part of the stack and by function.
      const file = join(
        profileDir,
        readdirSync(profileDir).find((f) => f.endsWith('.cpuprofile')),
      );
      const summary = summarizeProfile(file, 40);
      log(`profile ${file}: busy ${Math.round(summary.busyMs)} ms`);
      for (const [part, ms] of summary.parts) {
        log(`${part.padEnd(34)} ${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)} %`);
      }
      for (const f of summary.top) {
        log(`${((100 * f.ms) / summary.busyMs).toFixed(1).padStart(5)} %  ${f.name}`);
      }
    }
  }
}

/** The paragraph of docs/benchmarks.md. */
export function webhookLines(result) {
  const list = (xs) => xs.join(', ');
  return [
    '',
    `Creates with ${SUBSCRIPTIONS} active webhook subscriptions to every event type (a receiver in a process of its own on loopback answering 204; bench/webhooks.mjs), ` +
      `alternating rounds on one server: without ${list(result.without)} req/s, with ${list(result.with)} req/s → ` +
      `${result.ratio.toFixed(2)} of the rate (target ≥ ${WEBHOOK_CREATE_TARGET}). Every message of a round (two per create to each subscription) ` +
      `arrived ${list(result.drains)} ms after its load stopped.` +
      (result.cpuRatio === null
        ? ''
        : ` The server's CPU time per create, its deliveries included: ${list(result.cpu.without.map((x) => x.toFixed(2)))} ms without, ` +
          `${list(result.cpu.with.map((x) => x.toFixed(2)))} ms with → ${result.cpuRatio.toFixed(2)} of the rate a server bound by its CPU keeps ` +
          '(a figure the load of other programs on the machine changes less than the rates).') +
      (result.databaseCpu.with.length
        ? ` The database server's CPU time per create (it runs on this machine): ${list(result.databaseCpu.without.map((x) => x.toFixed(2)))} ms without, ` +
          `${list(result.databaseCpu.with.map((x) => x.toFixed(2)))} ms with; the receiver's ${list(result.receiverCpu.map((x) => x.toFixed(2)))} ms.`
        : '') +
      (result.hanging
        ? ` Beside a receiver that never answers (a fourth subscription, WEBHOOK_TIMEOUT ${result.hanging.timeoutMs} ms), ` +
          `${result.hanging.creates} creates written one after another in ${result.hanging.writtenMs} ms had every healthy message ` +
          `${result.hanging.drainedMs} ms after the last: none waited for the hanging one.`
        : ''),
  ];
}

// Alone: a small calendar of its own.
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const OPTIONS = {
    duration: 'S',
    rounds: 'N',
    port: 'P',
    connections: 'N',
    sqlite: null,
    profile: null,
    help: null,
  };
  const args = parseArgs(process.argv.slice(2), OPTIONS);
  if (args.help) {
    console.log(
      'Usage: node bench/webhooks.mjs [--duration S (10)] [--rounds N (4)] [--port P (3936)] [--connections N (10)] [--sqlite] [--profile]\n' +
        '--profile runs the server under node --cpu-prof and prints where its CPU went.\n' +
        'BENCH_DATABASE_URL as for npm run bench (default mariadb://root@127.0.0.1:3306/cal_bench, dropped and recreated).',
    );
    process.exit(0);
  }
  const url =
    process.env.BENCH_DATABASE_URL ??
    (args.sqlite
      ? `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-bench-')), 'bench.sqlite')}`
      : 'mariadb://root@127.0.0.1:3306/cal_bench');
  await resetDatabase(url);
  migrate(url);
  await seed(url, { events: 1000, venues: 50, organizers: 20, categories: 5, tags: 10 });
  const result = await webhookCreates({
    url,
    port: Number(args.port ?? 3936),
    auth: createEditor(url),
    duration: Number(args.duration ?? 10),
    rounds: Number(args.rounds ?? 4),
    connections: Number(args.connections ?? 10),
    profile: !!args.profile,
  });
  if (result.errors) {
    console.log(`ERRORS: ${result.errors} creates failed`);
    process.exitCode = 1;
  } else if (!(result.ratio >= WEBHOOK_CREATE_TARGET)) process.exitCode = 1;
}
