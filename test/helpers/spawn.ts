import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isMysql, resetDatabase, testDatabaseUrl, withDatabaseSuffix } from './database.js';

/**
 * The program as users run it, compiled by the test global setup with swc
 * (scripts/compile-fast.mjs: the same JavaScript as `npm run build`, without the type-check).
 */
export const ROOT = join(__dirname, '..', '..');
export const BUILD = join(ROOT, 'node_modules/.cache/cal-fast-build');
export const MAIN = join(BUILD, 'main.js');
export const CLI = join(BUILD, 'cli/main.js');
export const MIGRATE = join(BUILD, 'migrate.js');

/**
 * Node's compile cache for the programs the tests start (about 170 in the two suites): V8's
 * compiled code of the program's modules is kept here, so a start after the first skips
 * compiling them, a tenth of its CPU. The program's behaviour is the same; its memory at start
 * is not (the cached code comes in whole), so a test that measures that memory passes
 * `NODE_DISABLE_COMPILE_CACHE: '1'` (test/ops/memory.e2e-spec.ts).
 */
const COMPILE_CACHE = { NODE_COMPILE_CACHE: join(ROOT, 'node_modules/.cache/cal-compile-cache') };

/**
 * How long a spawned program may take to finish or to listen before the test gives up. A bound
 * for a hang, not an expectation: on a loaded two-core machine (two suites at once) the server's
 * start-up alone has taken 15-20 s, against 1-2 s idle, and a tight bound failed healthy runs.
 */
export const PROCESS_DEADLINE_MS = 90_000;

export function assertBuilt(): void {
  if (!existsSync(MAIN) || !existsSync(CLI) || !existsSync(MIGRATE)) {
    throw new Error('run `node scripts/compile-fast.mjs` first (the test global setup does)');
  }
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a built script to its end, with only PATH (and the compile cache) and `env` in its environment. */
export function run(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = PROCESS_DEADLINE_MS,
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...COMPILE_CACHE, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not exit within ${timeoutMs} ms: ${stdout}${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts the server and resolves once it listens (its start-up line, `firstLine`). */
export function startServer(
  env: Record<string, string>,
  timeoutMs = PROCESS_DEADLINE_MS,
): Promise<{ child: ChildProcess; firstLine: string; output: () => Finished }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [MAIN], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', ...COMPILE_CACHE, ...env },
    });
    let stdout = '';
    let stderr = '';
    const output = () => ({ code: child.exitCode, stdout, stderr });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the server printed nothing within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    // Resolved by the start-up line, printed once the server listens: log lines may come first
    // (the administrator created from ADMIN_LOGIN), and a request sent then is refused.
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      const line = stdout
        .split('\n')
        .find((l, i, all) => i < all.length - 1 && l.includes(' listening on '));
      if (line !== undefined) {
        clearTimeout(timer);
        resolve({ child, firstLine: line, output });
      }
    });
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', () => {
      clearTimeout(timer);
      reject(new Error(`the server exited: ${stdout}${stderr}`));
    });
  });
}

/** The environment every server a test starts shares: local only, with an administrator. */
export const adminServerEnv = (admin: { login: string; password: string }) => ({
  HOST: '127.0.0.1',
  ADMIN_LOGIN: admin.login,
  ADMIN_PASSWORD: admin.password,
});

/**
 * Starts the server on a free port (PORT set here; `env` may depend on it, for SITE_URL) and
 * resolves once it listens, with its port and origin besides.
 */
export async function serveOnFreePort(
  env: Record<string, string> | ((port: number) => Record<string, string>),
  timeoutMs = PROCESS_DEADLINE_MS,
) {
  const port = await freePort();
  const vars = typeof env === 'function' ? env(port) : env;
  const started = await startServer({ ...vars, PORT: String(port) }, timeoutMs);
  return { ...started, port, origin: `http://127.0.0.1:${port}` };
}

export function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * A TCP port nobody listens on right now, drawn below the kernel's ephemeral range like
 * freePortRun's: a port the kernel handed out (listen on 0) can be handed out again at once as the
 * local end of another test's outgoing connection (a second suite running beside this one took
 * one that way before the server it was meant for could listen on it).
 */
export function freePort(): Promise<number> {
  return freePortRun(1);
}

/** Whether `port` can be listened on at 127.0.0.1 now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * `count` consecutive free ports, for a program that takes a first port and uses the next ones.
 * They are drawn below the kernel's ephemeral range (32768 and up), where the connections of
 * other tests take their local ports, so that another test cannot take the second or third one
 * while the program starts.
 */
export async function freePortRun(count: number): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const first = 20_000 + Math.floor(Math.random() * 10_000);
    const ports = Array.from({ length: count }, (_, i) => first + i);
    if ((await Promise.all(ports.map(portIsFree))).every(Boolean)) return first;
  }
  throw new Error(`no ${count} consecutive free ports between 20000 and 30000`);
}

export const tempSqliteUrl = () =>
  `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-proc-')), 'cal.sqlite')}`;

/** A database of a spawned program's own: a suffixed MariaDB database, or a fresh SQLite file. */
export const ownDatabaseUrl = (suffix: string) =>
  isMysql() ? withDatabaseSuffix(testDatabaseUrl(), `_${suffix}`) : tempSqliteUrl();

/** A database both a spawned program (the CLI) and the in-test app can open. */
export const sharedDatabaseUrl = () => (isMysql() ? testDatabaseUrl() : tempSqliteUrl());

/** For the enclosing describe block: a fresh shared database, reset by `hook` (its beforeAll). */
export function useSharedDatabase(hook = beforeAll): { url: string } {
  const db = { url: '' };
  hook(async () => {
    db.url = sharedDatabaseUrl();
    await resetDatabase(db.url);
  });
  return db;
}

/** A GET on a connection of its own: its status, or `refused` when nothing listens. */
export function probe(port: number, path: string): Promise<number | 'refused'> {
  return new Promise((resolve) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve('refused'));
    req.end();
  });
}
