#!/usr/bin/env node
// Authenticated vs anonymous reads: shows what the credential cache saves. Starts the built server
// on a temporary SQLite file, creates a user with the CLI, then sends --requests sequential GETs of
// the namespace index anonymously and with HTTP Basic (loopback only, bounded).
//
//   npm run build && node bench/auth-cache.mjs [--requests 300]
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REQUESTS = Number(process.argv[process.argv.indexOf('--requests') + 1] || 300);
const PORT = 3918;
const env = {
  ...process.env,
  DATABASE_URL: `sqlite:${join(mkdtempSync(join(tmpdir(), 'cal-auth-')), 'a.sqlite')}`,
  PORT: String(PORT),
  HOST: '127.0.0.1',
};

const server = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
  cwd: ROOT,
  env,
  stdio: 'ignore',
});
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (i > 100) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const out = execFileSync(
    process.execPath,
    [join(ROOT, 'dist/cli/main.js'), 'user:create', 'bench', '--role', 'editor'],
    { env },
  ).toString();
  const password = out.trim().split('\n').pop();
  const header = `Basic ${Buffer.from(`bench:${password}`).toString('base64')}`;
  const run = async (headers) => {
    const times = [];
    for (let i = 0; i < REQUESTS; i++) {
      const t0 = performance.now();
      const r = await fetch(`http://127.0.0.1:${PORT}/cal/events/v1/doc`, { headers });
      await r.arrayBuffer();
      if (!r.ok) throw new Error(`status ${r.status}`);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const sum = times.reduce((a, b) => a + b, 0);
    return {
      mean: (sum / times.length).toFixed(2),
      p50: times[Math.floor(times.length / 2)].toFixed(2),
      p99: times[Math.floor(times.length * 0.99)].toFixed(2),
      first: 0,
    };
  };
  const t0 = performance.now();
  await (
    await fetch(`http://127.0.0.1:${PORT}/cal/events/v1/doc`, {
      headers: { authorization: header },
    })
  ).arrayBuffer();
  const firstAuth = (performance.now() - t0).toFixed(1);
  const anon = await run({});
  const auth = await run({ authorization: header });
  console.log(`| requests | mean ms | p50 ms | p99 ms |\n|---|---|---|---|`);
  console.log(`| anonymous (${REQUESTS}) | ${anon.mean} | ${anon.p50} | ${anon.p99} |`);
  console.log(`| HTTP Basic, cached (${REQUESTS}) | ${auth.mean} | ${auth.p50} | ${auth.p99} |`);
  console.log(
    `first authenticated request (scrypt verification): ${firstAuth} ms; ratio cached/anonymous mean: ${(auth.mean / anon.mean).toFixed(2)}`,
  );
} finally {
  server.kill();
}
