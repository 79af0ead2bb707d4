#!/usr/bin/env node
// Checks docker/Dockerfile, docker/compose.yaml and .dockerignore without a Docker engine, in
// well under a minute. Run it after `npm run build` (it starts dist/main.js):
//
//   node docker/check.mjs [--keep]     (--keep leaves the temporary folder for inspection)
//
//   1. The Dockerfile's shape: stages, Node base image against package.json `engines`, prebuilt
//      better-sqlite3 binaries for the image's platforms, non-root USER, ENV/EXPOSE/HEALTHCHECK/CMD, /app/data, what
//      the runtime stage copies, every COPY source from the context exists and is not excluded by
//      .dockerignore; `npm ci` accepts the lockfile (dry run).
//   2. compose.yaml parses (strict YAML), has only keys compose v2 knows, valid `$` interpolation,
//      and its services agree with each other, with the Dockerfile and with the application's
//      own configuration parser (loadConfig from dist/ on the api service's environment).
//   3. A smoke run of the runtime layout (dist, i18n, package files, node_modules): the image's CMD
//      with its ENV on a temporary SQLite file and a free port; /health, the namespace index, the
//      HEALTHCHECK command, the user CLI, then SIGTERM.
// Prints PASS/FAIL/NOTE per check; exits 1 if anything failed. Real images: the Dockerfile itself.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseDocument } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DOCKERFILE = path.join(ROOT, 'docker', 'Dockerfile');
const COMPOSE = path.join(ROOT, 'docker', 'compose.yaml');
const keep = process.argv.includes('--keep');
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-docker-check-'));
let passes = 0;
let failures = 0;
const PASS = (m) => (passes++, console.log(`PASS  ${m}`));
const FAIL = (m) => (failures++, console.log(`FAIL  ${m}`));
const NOTE = (m) => console.log(`NOTE  ${m}`);
const check = (ok, m) => (ok ? PASS(m) : FAIL(m));
const section = (m) => console.log(`\n== ${m}`);
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// ---- Dockerfile -------------------------------------------------------------------------------
/** Instructions (continuations joined, comments dropped) grouped into stages. */
function parseDockerfile(text) {
  const instrs = [];
  let buf = '';
  let start = 0;
  text.split('\n').forEach((raw, i) => {
    const line = raw.replace(/\r$/, '');
    if (line.trim().startsWith('#') || (!buf && !line.trim())) return;
    if (!buf) start = i + 1;
    const cont = /\\\s*$/.test(line);
    buf += cont ? `${line.replace(/\\\s*$/, '')} ` : line;
    if (!cont) {
      instrs.push({ line: start, text: buf.trim() });
      buf = '';
    }
  });
  const stages = [];
  for (const { line, text: t } of instrs) {
    const sp = t.search(/\s/);
    const kw = t.slice(0, sp).toUpperCase();
    const rest = t.slice(sp).trim();
    if (kw === 'FROM') {
      const toks = rest.split(/\s+/).filter((x) => !x.startsWith('--'));
      const name = toks[1]?.toLowerCase() === 'as' ? toks[2] : null;
      stages.push({ index: stages.length, name, base: toks[0], line, instrs: [] });
      continue;
    }
    if (!stages.length) throw new Error(`line ${line}: ${kw} before FROM`);
    const ins = { kw, line, rest };
    if (kw === 'COPY' || kw === 'ADD') {
      const toks = rest.split(/\s+/);
      ins.flags = {};
      while (toks[0]?.startsWith('--')) {
        const [k, v] = toks.shift().slice(2).split('=');
        ins.flags[k] = v ?? true;
      }
      ins.dest = toks.pop();
      ins.srcs = toks;
      ins.from = ins.flags.from ?? null;
    } else if (kw === 'ENV') {
      ins.env = {};
      for (const m of rest.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g))
        ins.env[m[1]] = m[2].replace(/^"|"$/g, '');
    } else if (kw === 'CMD' || kw === 'ENTRYPOINT') {
      ins.exec = rest.startsWith('[') ? JSON.parse(rest) : null;
    } else if (kw === 'HEALTHCHECK') {
      ins.options = Object.fromEntries(
        [...rest.matchAll(/--([a-z-]+)=(\S+)/g)].map((m) => [m[1], m[2]]),
      );
      const cmd = /\bCMD\s+(.*)$/.exec(rest)?.[1] ?? '';
      ins.exec = cmd.startsWith('[') ? JSON.parse(cmd) : null;
      ins.text = cmd;
    } else if (kw === 'EXPOSE') {
      ins.ports = rest.split(/\s+/).map((p) => p.replace(/\/(tcp|udp)$/, ''));
    }
    stages.at(-1).instrs.push(ins);
  }
  return stages;
}
const all = (stage, kw) => stage.instrs.filter((i) => i.kw === kw);
const workdirAt = (stage, ins) =>
  stage.instrs
    .slice(0, ins ? stage.instrs.indexOf(ins) : undefined)
    .filter((i) => i.kw === 'WORKDIR')
    .reduce((wd, i) => path.posix.resolve(wd, i.rest), '/');

/** .dockerignore rules; like Docker, the last rule matching a path or one of its parents decides. */
function loadIgnore() {
  const file = path.join(ROOT, '.dockerignore');
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((raw) => {
      const neg = raw.startsWith('!');
      const p = path.posix.normalize(neg ? raw.slice(1).trim() : raw).replace(/^\/+|\/+$/g, '');
      const re = p
        .split(/(\*\*\/?|\*|\?)/)
        .map(
          (t) => ({ '**/': '(?:.*/)?', '**': '.*', '*': '[^/]*', '?': '[^/]' })[t] ?? escapeRe(t),
        )
        .join('');
      return { raw, neg, re: new RegExp(`^${re}$`) };
    });
}
function excludedBy(rel, rules) {
  const parts = rel.split('/');
  let by = null;
  for (const r of rules)
    if (parts.some((_, n) => r.re.test(parts.slice(0, n + 1).join('/')))) by = r.neg ? null : r.raw;
  return by;
}
const listFiles = (abs) =>
  fs.statSync(abs).isDirectory()
    ? fs.readdirSync(abs).flatMap((e) => listFiles(path.join(abs, e)))
    : [abs];

/** Whether a node image tag meets a `>=X.Y.Z` minimum (its newest release for a floating tag). */
function satisfiesMinimum(base, major, min) {
  const [wantMajor, wantMinor] = [Number(min[1]), Number(min[2] ?? 0)];
  if (major !== wantMajor) return major > wantMajor;
  const pinned = /^node:\d+\.(\d+)/.exec(base);
  return pinned
    ? Number(pinned[1]) > wantMinor || (Number(pinned[1]) === wantMinor && !min[3])
    : true;
}

function checkDockerfile() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
  const final = stages.at(-1);
  const byRef = (ref) => stages.find((s) => s.name === ref || String(s.index) === ref);
  PASS(`Dockerfile read: ${stages.map((s) => `${s.name ?? s.index} from ${s.base}`).join(', ')}`);
  check(stages.length >= 2 && stages.every((s) => s.name), 'named build and runtime stages');
  for (const s of stages) for (const ins of all(s, 'ADD')) FAIL(`line ${ins.line}: ADD; use COPY`);
  for (const s of stages)
    for (const ins of all(s, 'COPY').filter((i) => i.from))
      check(
        byRef(ins.from)?.index < s.index,
        `line ${ins.line}: COPY --from=${ins.from} names an earlier stage`,
      );

  // Base image: one Node image for all stages (what `npm ci` installs is what runs),
  // and every release of its major satisfies engines.node (only ">=X.Y[.Z]" ranges are understood).
  const bases = [...new Set(stages.map((s) => s.base))];
  const major = Number(/^node:(\d+)(?:[-.]|$)/.exec(bases[0])?.[1]);
  check(
    bases.length === 1 && major > 0,
    `every stage uses one official node:<major> image (${bases.join(', ')})`,
  );
  check(/slim/.test(final.base), `runtime image is slim (${final.base})`);
  const engines = pkg.engines?.node ?? '';
  const min = /^>=\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?$/.exec(engines.trim());
  if (!min) FAIL(`package.json engines.node "${engines}": expected a ">=X.Y" range`);
  else
    // `node:22-…` is a floating tag: a build pulls the newest 22.x release, so a minimum inside
    // the tag's own major (22.12, for @nestjs/swagger and @nestjs/throttler) is met by it. A tag
    // pinned to a minor (`node:22.11-…`) must meet the minimum itself.
    check(
      satisfiesMinimum(bases[0], major, min),
      `${bases[0]} satisfies engines.node "${engines}"`,
    );

  // The image has no compiler: better-sqlite3 must bring binaries for the Debian (glibc) images
  // on both architectures Docker Hub's node images are commonly pulled for.
  const prebuilds = path.join(ROOT, 'node_modules', 'better-sqlite3', 'prebuilds');
  const platforms = ['linux-x64', 'linux-arm64'].filter(
    (p) => !fs.existsSync(path.join(prebuilds, `${p}.node`)),
  );
  check(
    !platforms.length,
    `better-sqlite3 ships prebuilt binaries for linux-x64 and linux-arm64${platforms.length ? `; missing ${platforms.join(', ')}` : ''}`,
  );
  for (const s of stages) {
    const runs = all(s, 'RUN').map((r) => r.rest);
    const apt = runs.find((r) => /apt-get install/.test(r));
    if (apt !== undefined)
      check(
        /rm -rf \/var\/lib\/apt\/lists/.test(apt),
        `stage ${s.name} removes the apt lists in the same layer`,
      );
    if (!runs.some((r) => /\bnpm ci\b/.test(r))) continue;
    for (const need of [
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'tsconfig.build.json',
      'src',
    ])
      check(
        all(s, 'COPY').some((c) => !c.from && c.srcs.includes(need)),
        `stage ${s.name} copies ${need} for npm ci / npm run build`,
      );
  }

  // Runtime stage.
  const env = Object.assign({}, ...all(final, 'ENV').map((i) => i.env));
  const userIns = all(final, 'USER').at(-1);
  const user = userIns?.rest.split(':')[0];
  check(
    user && user !== 'root' && user !== '0',
    `runtime runs as the non-root user "${user ?? ''}"`,
  );
  const wd = workdirAt(final);
  check(wd === '/app', `runtime WORKDIR ${wd}`);
  check(env.NODE_ENV === 'production', `ENV NODE_ENV=${env.NODE_ENV ?? ''}`);
  const exposed = all(final, 'EXPOSE').flatMap((i) => i.ports);
  check(
    env.PORT && exposed.includes(env.PORT),
    `ENV PORT=${env.PORT ?? ''} is EXPOSEd (${exposed.join(' ')})`,
  );
  const cmd = all(final, 'CMD').at(-1)?.exec;
  check(!all(final, 'ENTRYPOINT').length, 'no ENTRYPOINT');
  check(
    cmd?.[0] === 'node' && cmd.length === 2,
    `CMD in exec form, node as PID 1: ${JSON.stringify(cmd)}`,
  );
  const hc = all(final, 'HEALTHCHECK').at(-1);
  check(
    hc?.exec?.[0] === 'node',
    `HEALTHCHECK runs node in exec form (the slim image has no curl/wget)`,
  );
  check(
    /127\.0\.0\.1.*\/health\b/.test(hc?.text ?? '') && /PORT/.test(hc?.text ?? ''),
    'HEALTHCHECK fetches 127.0.0.1:$PORT/health',
  );
  check(
    hc?.options.timeout && hc.options['start-period'],
    `HEALTHCHECK has --timeout and --start-period (${JSON.stringify(hc?.options)})`,
  );

  // The runtime gets exactly what `node dist/main.js` needs; node_modules without dev dependencies.
  const copies = all(final, 'COPY').flatMap((ins) =>
    ins.srcs.map((s) => {
      const dest = path.posix.resolve(workdirAt(final, ins), ins.dest);
      return {
        ins,
        src: s,
        rel: path.posix.relative(
          wd,
          ins.dest.endsWith('/') || ins.srcs.length > 1
            ? path.posix.join(dest, path.posix.basename(s))
            : dest,
        ),
      };
    }),
  );
  const wanted = ['dist', 'i18n', 'node_modules', 'package-lock.json', 'package.json', 'views'];
  const got = copies.map((c) => c.rel).sort();
  check(
    JSON.stringify(got) === JSON.stringify(wanted),
    `runtime copies exactly ${wanted.join(', ')} (got ${got.join(', ')})`,
  );
  for (const c of copies.filter((x) => x.ins.from)) {
    // Each --from path is produced in that stage's /app: node_modules by npm ci, pruned; dist by npm run build.
    const from = byRef(c.ins.from);
    const runs = from ? all(from, 'RUN').map((r) => r.rest) : [];
    const base = path.posix.basename(c.src);
    const producer = { node_modules: /\bnpm ci\b/, dist: /\bnpm run build\b/ }[base];
    check(
      producer &&
        runs.some((r) => producer.test(r)) &&
        from &&
        path.posix.dirname(c.src) === workdirAt(from),
      `COPY --from=${c.ins.from} ${c.src} is produced by that stage`,
    );
    if (base === 'node_modules')
      check(
        runs.some((r) => /npm prune --omit=dev/.test(r)),
        `node_modules from ${c.ins.from} is pruned of dev dependencies`,
      );
  }
  const dataRun = final.instrs.findIndex(
    (i) => i.kw === 'RUN' && /mkdir -p \/app\/data\b/.test(i.rest),
  );
  check(
    dataRun >= 0 &&
      new RegExp(`chown ${escapeRe(user ?? '?')}(:\\S+)? /app/data`).test(
        final.instrs[dataRun].rest,
      ) &&
      dataRun < final.instrs.indexOf(userIns),
    `/app/data is created and given to ${user} before USER`,
  );

  // COPY sources from the build context: present, and not dropped by .dockerignore.
  const rules = loadIgnore();
  check(rules.length, `.dockerignore has rules (${rules.map((r) => r.raw).join(', ')})`);
  const kept = ['node_modules', 'dist', '.git', 'data'].filter((p) => !excludedBy(p, rules));
  check(
    !kept.length,
    `.dockerignore keeps node_modules, dist, .git, data out of the context${kept.length ? `; not: ${kept.join(', ')}` : ''}`,
  );
  check(
    !fs.existsSync(`${DOCKERFILE}.dockerignore`),
    'no docker/Dockerfile.dockerignore overriding .dockerignore',
  );
  for (const s of stages)
    for (const ins of all(s, 'COPY').filter((i) => !i.from))
      for (const src of ins.srcs) {
        const abs = path.resolve(ROOT, src);
        if (!abs.startsWith(ROOT + path.sep) || !fs.existsSync(abs)) {
          FAIL(`line ${ins.line}: COPY ${src}: not in the build context`);
          continue;
        }
        const files = listFiles(abs).map((f) => path.relative(ROOT, f));
        const dropped = files.filter((f) => excludedBy(f, rules));
        check(
          !dropped.length,
          `line ${ins.line}: COPY ${src}: ${files.length} file(s), ${dropped.length} excluded by .dockerignore${dropped.length ? ` (${dropped.slice(0, 3)})` : ''}`,
        );
      }

  // `RUN npm ci` stops the build when the lockfile disagrees with package.json.
  const lockDir = path.join(TMP, 'lockfile');
  fs.mkdirSync(lockDir);
  for (const f of ['package.json', 'package-lock.json'])
    fs.copyFileSync(path.join(ROOT, f), path.join(lockDir, f));
  const npm = spawnSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], {
    cwd: lockDir,
    encoding: 'utf8',
  });
  check(
    npm.status === 0,
    `npm ci --dry-run accepts package-lock.json${npm.status ? `: ${(npm.stderr.match(/^npm error (Missing|Invalid).*$/gm) ?? [npm.stderr.trim().split('\n').at(-1)]).slice(0, 3).join('; ')}` : ''}`,
  );
  return { env, cmd, healthcheck: hc?.exec, exposed, copies };
}

// ---- compose.yaml -----------------------------------------------------------------------------
const TOP_KEYS = new Set([
  'name',
  'services',
  'volumes',
  'networks',
  'configs',
  'secrets',
  'include',
  'models',
]);
const SERVICE_KEYS = new Set(
  (
    'build image command entrypoint environment env_file ports expose volumes depends_on healthcheck restart networks ' +
    'container_name user working_dir labels logging deploy profiles init stop_signal stop_grace_period tmpfs ' +
    'read_only cap_add cap_drop security_opt ulimits extra_hosts hostname secrets configs platform pull_policy develop'
  ).split(' '),
);
/** compose's ${VAR:-default} / ${VAR-default} with VAR unset, and $$ for a literal $. */
const interpolate = (v) =>
  String(v)
    .replace(/\$\{[A-Za-z_]\w*:?-([^}]*)\}/g, '$1')
    .replace(/\$\$/g, '$');
const envOf = (svc) =>
  Array.isArray(svc?.environment)
    ? Object.fromEntries(
        svc.environment.map((e) => [
          e.split('=')[0],
          e.includes('=') ? e.slice(e.indexOf('=') + 1) : null,
        ]),
      )
    : { ...svc?.environment };

async function checkCompose(df) {
  const text = fs.readFileSync(COMPOSE, 'utf8');
  const doc = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: true });
  if (doc.errors.length)
    return FAIL(`compose.yaml is not valid YAML: ${doc.errors.map((e) => e.message).join('; ')}`);
  const c = doc.toJS();
  PASS('compose.yaml parses as YAML (no duplicate keys)');
  const unknown = Object.keys(c ?? {}).filter((k) => !TOP_KEYS.has(k) && !k.startsWith('x-'));
  check(
    !unknown.length,
    `top-level keys are compose v2's${unknown.length ? `; unknown: ${unknown.join(', ')}` : ''}`,
  );
  check(!('version' in (c ?? {})), 'no obsolete top-level `version`');
  const services = c?.services ?? {};
  for (const [name, svc] of Object.entries(services)) {
    const bad = Object.keys(svc ?? {}).filter((k) => !SERVICE_KEYS.has(k) && !k.startsWith('x-'));
    check(
      !bad.length,
      `service ${name}: known keys only${bad.length ? `; unknown: ${bad.join(', ')}` : ''}`,
    );
    check(svc?.image || svc?.build, `service ${name} has an image or a build`);
    for (const [k, v] of Object.entries(envOf(svc)))
      if (v !== null && typeof v === 'object')
        FAIL(`service ${name}: environment ${k} is not a scalar`);
  }
  const badDollar = text
    .replace(/\$\$/g, '')
    .match(/\$(?!\{[A-Za-z_]\w*(?::?[-?+][^}]*)?\}|[A-Za-z_])./g);
  check(
    !badDollar,
    `every $ is an interpolation or escaped as $$${badDollar ? `; not: ${badDollar.join(' ')}` : ''}`,
  );

  const { db, api } = services;
  check(db && api, 'services db and api');
  if (!db || !api) return;
  const dbEnv = envOf(db);
  check((db.image ?? '').startsWith('mysql:8.'), `db image ${db.image}`);
  for (const k of ['MYSQL_DATABASE', 'MYSQL_USER', 'MYSQL_PASSWORD', 'MYSQL_ROOT_PASSWORD'])
    check(dbEnv[k], `db environment sets ${k}`);
  const dbCmd = [db.command].flat().join(' ');
  for (const flag of ['--character-set-server=utf8mb4', '--collation-server=utf8mb4_unicode_ci'])
    check(dbCmd.includes(flag), `db command has ${flag}`);
  check(
    (db.volumes ?? []).includes('db-data:/var/lib/mysql') && c.volumes && 'db-data' in c.volumes,
    'db keeps /var/lib/mysql in the declared volume db-data',
  );
  const hc = [db.healthcheck?.test].flat().join(' ');
  check(
    /mysqladmin ping/.test(hc) && /-h 127\.0\.0\.1|--protocol=tcp/.test(hc),
    'db healthcheck pings MySQL over TCP',
  );
  check(!/(?<!\$)\$MYSQL/.test(hc), 'db healthcheck leaves $$MYSQL_... to the container shell');

  const ctx = path.resolve(path.dirname(COMPOSE), api.build?.context ?? '.');
  check(
    ctx === ROOT,
    `api build context is the repository root (${path.relative(ROOT, ctx) || '.'})`,
  );
  check(
    path.resolve(ctx, api.build?.dockerfile ?? 'Dockerfile') === DOCKERFILE,
    `api build dockerfile is docker/Dockerfile`,
  );
  const ports = (api.ports ?? []).map(String);
  const containerPorts = ports.map((p) => p.split(':').at(-1).split('/')[0]);
  check(
    ports.length && containerPorts.every((p) => df.exposed.includes(p)),
    `api publishes ${ports} onto the EXPOSEd port ${df.exposed}`,
  );
  check(api.depends_on?.db?.condition === 'service_healthy', 'api waits for db to be healthy');
  check(
    api.restart === 'unless-stopped' && db.restart === 'unless-stopped',
    'both services restart unless stopped',
  );
  const apiEnv = envOf(api);
  for (const k of ['ADMIN_LOGIN', 'ADMIN_PASSWORD'])
    check(
      /^\$\{\w+:-.+\}$/.test(apiEnv[k] ?? ''),
      `api ${k} comes from the shell with a default (${apiEnv[k]})`,
    );
  const url = new URL(interpolate(apiEnv.DATABASE_URL ?? ''));
  check(
    url.protocol === 'mysql:' && url.hostname === 'db' && (url.port || '3306') === '3306',
    `api DATABASE_URL points at db:3306 (${url.host})`,
  );
  check(
    decodeURIComponent(url.username) === dbEnv.MYSQL_USER &&
      decodeURIComponent(url.password) === dbEnv.MYSQL_PASSWORD,
    'api DATABASE_URL user/password are MYSQL_USER/MYSQL_PASSWORD',
  );
  check(
    url.pathname.slice(1) === dbEnv.MYSQL_DATABASE,
    'api DATABASE_URL database is MYSQL_DATABASE',
  );

  // The api's environment as the container sees it (image ENV, then compose's), through loadConfig.
  const env = {
    ...df.env,
    ...Object.fromEntries(Object.entries(apiEnv).map(([k, v]) => [k, interpolate(v)])),
  };
  const configJs = path.join(ROOT, 'dist', 'config', 'config.js');
  if (!fs.existsSync(configJs))
    return FAIL('dist/config/config.js missing: run `npm run build` first');
  const { loadConfig } = await import(pathToFileURL(configJs).href);
  let refused = '';
  try {
    loadConfig(env);
  } catch (e) {
    refused = String(e.message);
  }
  check(
    refused.includes('ADMIN_PASSWORD'),
    `loadConfig refuses compose's placeholder ADMIN_PASSWORD (${refused || 'accepted'})`,
  );
  try {
    const cfg = loadConfig({ ...env, ADMIN_PASSWORD: 'an operator passphrase' });
    const d = cfg.database;
    check(
      d.type === 'mysql' &&
        d.host === 'db' &&
        String(cfg.port) === df.env.PORT &&
        cfg.admin?.login === 'admin',
      `loadConfig accepts the api environment with a real password: ${d.type}://${d.username}@${d.host}:${d.port}/${d.database}, port ${cfg.port}, admin ${cfg.admin?.login}`,
    );
  } catch (e) {
    FAIL(`loadConfig rejects the api environment: ${e.message}`);
  }
}

// ---- smoke run ----------------------------------------------------------------------------------
const freePort = () =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const statusOf = (url) =>
  fetch(url, { signal: AbortSignal.timeout(3000) }).then(
    async (r) => ({ status: r.status, body: await r.text() }),
    () => ({ status: 0, body: '' }),
  );
const run = (argv, opts) =>
  new Promise((resolve) => {
    const p = spawn(argv[0], argv.slice(1), {
      ...opts,
      stdio: ['ignore', 'pipe', 'pipe'],
      // A bound for a hang only: on a loaded two-core machine the CLI beside the server took 15 s.
      timeout: 60000,
    });
    let out = '';
    p.stdout.on('data', (d) => (out += d));
    p.stderr.on('data', (d) => (out += d));
    p.on('close', (code) => resolve({ code, out }));
  });

async function smokeRun(df) {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'main.js')))
    return FAIL('dist/main.js missing: run `npm run build` first');
  // The runtime layout: what the runtime stage copies; node_modules linked (ours has dev packages too).
  const app = path.join(TMP, 'app');
  fs.mkdirSync(app);
  for (const { ins, src, rel } of df.copies) {
    // A build-stage path under its WORKDIR (/app) is what `npm ci` / `npm run build` made here.
    const from = path.join(ROOT, ins.from ? path.posix.relative('/app', src) : src);
    const to = path.join(app, rel);
    if (!fs.existsSync(from))
      return FAIL(`runtime COPY ${src}: nothing at ${path.relative(ROOT, from)}`);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    if (rel === 'node_modules') fs.symlinkSync(from, to, 'dir');
    else fs.cpSync(from, to, { recursive: true });
  }
  const port = await freePort();
  const dbFile = path.join(TMP, 'data', 'cal.sqlite');
  const env = {
    PATH: process.env.PATH,
    HOME: TMP,
    ...df.env,
    PORT: String(port),
    DATABASE_URL: `sqlite:${dbFile}`,
    ADMIN_LOGIN: 'admin',
    ADMIN_PASSWORD: 'check-password-1234',
  };
  NOTE(`starting ${JSON.stringify(df.cmd)} in the runtime layout on port ${port}`);
  const server = spawn(df.cmd[0], df.cmd.slice(1), {
    cwd: app,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  server.stdout.on('data', (d) => (log += d));
  server.stderr.on('data', (d) => (log += d));
  const exited = new Promise((resolve) =>
    server.on('exit', (code, signal) => resolve({ code, signal })),
  );
  // exitCode and signalCode stay null while the process runs.
  const alive = () => server.exitCode === null && server.signalCode === null;
  const base = `http://127.0.0.1:${port}`;
  const started = Date.now();
  let health = { status: 0 };
  while (alive() && Date.now() - started < 45000 && health.status !== 200) {
    await sleep(200);
    health = await statusOf(`${base}/health`);
  }
  try {
    if (health.status !== 200)
      return FAIL(
        `GET /health never answered 200 (last ${health.status}); log:\n${log.split('\n').slice(-30).join('\n')}`,
      );
    PASS(`GET /health -> 200 after ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const index = await statusOf(`${base}/cal/events/v1`);
    let ns = '';
    try {
      ns = JSON.parse(index.body).namespace;
    } catch {}
    check(
      index.status === 200 && ns === 'cal/events/v1',
      `GET /cal/events/v1 -> ${index.status}, namespace ${ns}`,
    );
    check(
      fs.existsSync(dbFile),
      'the SQLite database was created at DATABASE_URL (migrations ran)',
    );
    // The image's NODE_OPTIONS sizes the young generation as src/common/heap.ts does, so the
    // server does not start itself again: PID 1 keeps the CMD's command line.
    const { SEMI_SPACE_MB, MALLOC_ARENAS } = await import(
      pathToFileURL(path.join(ROOT, 'dist', 'common', 'heap.js')).href
    );
    const semi = `--max-semi-space-size=${SEMI_SPACE_MB}`;
    check(
      (df.env.NODE_OPTIONS ?? '').split(/\s+/).includes(semi),
      `ENV NODE_OPTIONS has ${semi}: ${df.env.NODE_OPTIONS ?? ''}`,
    );
    check(
      df.env.MALLOC_ARENA_MAX === String(MALLOC_ARENAS),
      `ENV MALLOC_ARENA_MAX is ${MALLOC_ARENAS}, as the server sets it when it starts itself: ${df.env.MALLOC_ARENA_MAX ?? 'unset'}`,
    );
    if (process.platform === 'linux') {
      const cmdline = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
      check(
        JSON.stringify(cmdline.slice(0, -1)) === JSON.stringify(df.cmd),
        `the server kept the CMD's command line (no second start): ${cmdline.join(' ').trim()}`,
      );
    }
    if (df.healthcheck) {
      const ok = await run(df.healthcheck, { cwd: app, env: { ...env, PORT: String(port) } });
      check(ok.code === 0, `HEALTHCHECK command exits ${ok.code} against the running server`);
      const down = await run(df.healthcheck, {
        cwd: app,
        env: { ...env, PORT: String(await freePort()) },
      });
      check(down.code !== 0, `HEALTHCHECK command exits ${down.code} when nothing listens`);
    }
    const cli = await run(
      ['node', 'dist/cli/main.js', 'user:create', 'check-admin', '--role', 'administrator'],
      { cwd: app, env },
    );
    check(
      cli.code === 0 && /Created administrator "check-admin"/.test(cli.out),
      `CLI user:create in the same layout exits ${cli.code}${cli.code ? `: ${cli.out.trim().split('\n')[0]}` : ''}`,
    );
  } finally {
    // docker stop: SIGTERM, then the server should close and exit on its own (143 = 128 + SIGTERM).
    if (alive()) server.kill('SIGTERM');
    const end = await Promise.race([exited, sleep(10000).then(() => null)]);
    if (!end) server.kill('SIGKILL');
    check(
      end && (end.code === 0 || end.code === 143 || end.signal === 'SIGTERM'),
      `server stops on SIGTERM (${end ? `exit ${end.code ?? end.signal}` : 'still running after 10 s'})`,
    );
  }
}

// ---- main ---------------------------------------------------------------------------------------
console.log(`Docker setup check; Node ${process.version}; temp ${TMP}`);
try {
  section('Dockerfile and .dockerignore');
  const df = checkDockerfile();
  section('docker/compose.yaml');
  await checkCompose(df);
  section('Smoke run of the runtime layout');
  if (df.cmd) await smokeRun(df);
} catch (e) {
  FAIL(`check crashed: ${e.stack}`);
} finally {
  if (!keep) fs.rmSync(TMP, { recursive: true, force: true });
}
// From the start of the process (performance.now()), loading the modules above included.
console.log(`\n${passes} passed, ${failures} failed in ${(performance.now() / 1000).toFixed(1)} s`);
console.log(failures ? 'RESULT: FAIL' : 'RESULT: PASS');
process.exitCode = failures ? 1 : 0;
