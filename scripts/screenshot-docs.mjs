#!/usr/bin/env node
// Opens the Swagger UI page of every language in headless Chromium and checks, on a server with no
// outside network access needed:
//   - the page renders the document of its language (title, operations, Hungarian/Romanian texts);
//   - every request the page makes goes to this server (assets come from swagger-ui-dist, no CDN);
//   - "Try it out" → "Execute" on GET /events reaches this server under the page's language prefix
//     and gets a 200.
// It keeps a screenshot of the Hungarian page in docs/swagger-ui-hu.png (the others go to a
// temporary folder). Run by hand, not by `npm test`:
//
//   node scripts/screenshot-docs.mjs            (needs Debian's `chromium`)
//
// The app is compiled into node_modules/.cache/cal-docs-ui (not dist/) and served on loopback
// with an in-memory SQLite database; everything started here is stopped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

await main();

async function main() {
  const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
  const BUILD = join(ROOT, 'node_modules', '.cache', 'cal-docs-ui');
  const OUT = mkdtempSync(join(tmpdir(), 'cal-docs-shots-'));
  const PAGES = [
    { lang: 'en', path: '/cal/events/v1/doc/ui', expect: 'The Events Calendar REST API allows' },
    { lang: 'hu', path: '/hu/cal/events/v1/doc/ui', expect: 'A The Events Calendar REST API-ja' },
    { lang: 'ro', path: '/ro/cal/events/v1/doc/ui', expect: 'API-ul REST The Events Calendar' },
  ];
  const stops = [];
  let failed = false;
  const check = (ok, message) => {
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
    if (!ok) failed = true;
  };

  try {
    console.log('compiling the app into node_modules/.cache/cal-docs-ui ...');
    const tsc = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
        '-p',
        'tsconfig.build.json',
        '--outDir',
        BUILD,
      ],
      { cwd: ROOT, stdio: 'inherit' },
    );
    // tsc still writes the JavaScript when it reports type errors; those are not this check's job.
    if (tsc.status !== 0)
      console.log('(tsc reported errors; running the emitted JavaScript anyway)');

    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const server = spawn(process.execPath, [join(BUILD, 'main.js')], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: 'sqlite::memory:',
        MIGRATIONS_RUN: 'true',
        HOST: '127.0.0.1',
        PORT: String(port),
        SITE_URL: origin,
        BASE_PATH: '',
        DEFAULT_LANGUAGE: 'en',
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    stops.push(() => stop(server));
    await waitFor(async () => (await fetch(`${origin}/health`)).ok, 'the server');

    const profile = mkdtempSync(join(tmpdir(), 'cal-docs-chromium-'));
    stops.push(() => rmSync(profile, { recursive: true, force: true, maxRetries: 5 }));
    const chromium = spawn(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--user-data-dir=${profile}`,
        '--window-size=1280,1600',
        '--remote-debugging-port=0',
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    stops.unshift(() => stop(chromium));
    const browserUrl = await new Promise((resolve, reject) => {
      let text = '';
      chromium.stderr.on('data', (chunk) => {
        text += chunk;
        const match = /DevTools listening on (ws:\/\/\S+)/.exec(text);
        if (match) resolve(match[1]);
      });
      chromium.on('exit', (code) => reject(new Error(`chromium exited (${code}): ${text}`)));
    });

    const cdp = await connect(browserUrl);
    for (const page of PAGES) {
      const { targetId } = await cdp.send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await cdp.send('Target.attachToTarget', { targetId, flatten: true });
      const send = (method, params) => cdp.send(method, params, sessionId);
      const requests = [];
      cdp.on('Network.requestWillBeSent', sessionId, (e) => requests.push(e.request.url));
      await send('Network.enable');
      await send('Page.enable');
      await send('Emulation.setDeviceMetricsOverride', {
        width: 1280,
        height: 1600,
        deviceScaleFactor: 1,
        mobile: false,
      });
      const evaluate = async (expression) =>
        (await send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }))
          .result.value;

      await send('Page.navigate', { url: `${origin}${page.path}` });
      await waitFor(
        async () => (await evaluate(`document.querySelectorAll('.opblock').length`)) > 20,
        `${page.lang} operations`,
      );
      const text = await evaluate('document.body.innerText');
      check(text.includes(page.expect), `${page.lang}: the page shows the ${page.lang} document`);
      const servers = await evaluate(
        `[...document.querySelectorAll('.servers select option')].map((o) => o.value)`,
      );
      const base = `${origin}${page.lang === 'en' ? '' : `/${page.lang}`}/cal/events/v1/`;
      check(JSON.stringify(servers) === JSON.stringify([base]), `${page.lang}: server ${servers}`);

      const shot = await send('Page.captureScreenshot', { format: 'png' });
      const file =
        page.lang === 'hu'
          ? join(ROOT, 'docs', 'swagger-ui-hu.png')
          : join(OUT, `swagger-ui-${page.lang}.png`);
      writeFileSync(file, Buffer.from(shot.data, 'base64'));
      console.log(`     screenshot: ${file}`);

      // Try it out: GET /events, executed from the page against this server.
      const opened = await evaluate(`(() => {
        const op = [...document.querySelectorAll('.opblock-get')].find((el) =>
          el.querySelector('.opblock-summary-path')?.getAttribute('data-path') === '/events');
        if (!op) return false;
        (op.querySelector('.opblock-summary-control') ?? op.querySelector('.opblock-summary')).click();
        return true;
      })()`);
      check(opened, `${page.lang}: GET /events found`);
      await waitFor(
        async () => evaluate(`!!document.querySelector('.opblock-get.is-open .execute')`),
        `${page.lang} execute button`,
      );
      await evaluate(`document.querySelector('.opblock-get.is-open .execute').click()`);
      await waitFor(
        async () =>
          evaluate(
            `!!document.querySelector('.opblock-get.is-open .live-responses-table tbody .response-col_status')`,
          ),
        `${page.lang} live response`,
      );
      const status = await evaluate(
        `document.querySelector('.opblock-get.is-open .live-responses-table tbody .response-col_status').innerText.trim()`,
      );
      const requestUrl = await evaluate(
        `document.querySelector('.opblock-get.is-open .request-url pre')?.innerText.trim()`,
      );
      check(status === '200', `${page.lang}: Try it out answered ${status}`);
      check(
        requestUrl?.startsWith(`${base}events`),
        `${page.lang}: Try it out called ${requestUrl}`,
      );

      const outside = requests.filter(
        (url) => !url.startsWith(origin) && !/^(data|blob):/.test(url),
      );
      check(
        outside.length === 0,
        `${page.lang}: ${requests.length} requests, none outside ${origin} ${outside.join(' ')}`,
      );
      await cdp.send('Target.closeTarget', { targetId });
    }
    cdp.close();
  } finally {
    // Stops are synchronous (rmSync) or return a promise (a process stopped); await takes both.
    for (const step of stops) {
      try {
        await Promise.resolve(step());
      } catch (error) {
        console.error(`cleanup: ${error.message}`);
      }
    }
  }
  console.log(failed ? 'Swagger UI check FAILED' : 'Swagger UI check passed');
  process.exit(failed ? 1 : 0);
}

/** Stops a child process started here and waits until it is gone. */
function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitFor(test, what, timeoutMs = 30000) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      if (await test()) return;
    } catch {
      // not ready yet
    }
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A minimal Chrome DevTools Protocol client over the browser's WebSocket. */
function connect(url) {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url);
    let nextId = 1;
    const pending = new Map();
    const listeners = [];
    socket.addEventListener('error', () => reject(new Error(`cannot connect to ${url}`)));
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.id && pending.has(message.id)) {
        const { resolve: ok, reject: fail, method } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) fail(new Error(`${method}: ${message.error.message}`));
        else ok(message.result);
        return;
      }
      for (const l of listeners) {
        if (l.method === message.method && l.sessionId === message.sessionId)
          l.handler(message.params);
      }
    });
    socket.addEventListener('open', () =>
      resolve({
        send(method, params = {}, sessionId) {
          const id = nextId++;
          socket.send(JSON.stringify({ id, method, params, ...(sessionId && { sessionId }) }));
          return new Promise((ok, fail) => pending.set(id, { resolve: ok, reject: fail, method }));
        },
        on(method, sessionId, handler) {
          listeners.push({ method, sessionId, handler });
        },
        close() {
          socket.close();
        },
      }),
    );
  });
}
