#!/usr/bin/env bash
# Checks docker/Dockerfile, docker/compose.yaml and .dockerignore without a Docker engine.
#
#   docker/check.sh            full run: simulates both stages with a real `npm ci` (compiles
#                              better-sqlite3 from source; a few minutes)
#   docker/check.sh --quick    symlinks the repository's node_modules instead (seconds)
#   docker/check.sh --keep     keeps the temporary folder for inspection
#
# What it does:
#   1. Reads the Dockerfile (continuations, stages, COPY/RUN/ENV/...), checks its shape (stages,
#      base images against the `engines` of package.json and the lockfile, non-root user, ENV,
#      EXPOSE, HEALTHCHECK, CMD, data folder), that every COPY source from the build context
#      exists and that no file under it is excluded by .dockerignore.
#   2. Simulates the stages in a temporary folder, each stage's filesystem under its own root:
#      COPY instructions copy what Docker would copy (context files filtered by .dockerignore,
#      `--from` paths out of the earlier stage's simulated root), the build stage's RUN lines run
#      as written (apt-get is skipped: the toolchain is checked locally instead). With --quick,
#      `npm ci` becomes a symlink to the repository's node_modules and `npm prune` is skipped (it
#      would prune the repository's own tree). Every `COPY --from` source must have been produced.
#   3. Starts the image's CMD in the simulated runtime folder (NODE_ENV/PORT from its ENV, SQLite
#      in the temp folder, a free port), polls /health until 200, checks GET /cal/events/v1, runs
#      the HEALTHCHECK command and the user CLI, then stops the server with SIGTERM.
#   4. Parses compose.yaml (python3 + PyYAML, else a structural grep) and checks the services
#      against each other, the Dockerfile, and the application's own configuration parser.
# The simulation runs on this machine's Node and npm, not the image's (node:22, npm 10).
# Prints PASS/FAIL/NOTE per check and exits 1 if anything failed.

set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DOCKERFILE="$ROOT/docker/Dockerfile"
COMPOSE="$ROOT/docker/compose.yaml"

QUICK=0
KEEP=0
for arg in "$@"; do
  case "$arg" in
    --quick) QUICK=1 ;;
    --keep) KEEP=1 ;;
    -h | --help)
      sed -n '2,/^$/p' "$0" | sed 's/^# \{0,1\}//'
      exit 0
      ;;
    *)
      echo "unknown option: $arg (use --quick, --keep)" >&2
      exit 2
      ;;
  esac
done

TMP="$(mktemp -d "${TMPDIR:-/tmp}/cal-docker-check.XXXXXX")"
SERVER_PID=""
PASSES=0
FAILURES=0

cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null
    sleep 1
    kill -0 "$SERVER_PID" 2>/dev/null && kill -KILL "$SERVER_PID" 2>/dev/null
  fi
  if [[ $KEEP -eq 1 ]]; then
    echo "Temporary folder kept: $TMP"
  else
    rm -rf "$TMP"
  fi
}
trap cleanup EXIT

pass() { printf 'PASS  %s\n' "$*"; PASSES=$((PASSES + 1)); }
fail() { printf 'FAIL  %s\n' "$*"; FAILURES=$((FAILURES + 1)); }
note() { printf 'NOTE  %s\n' "$*"; }
section() { printf '\n== %s\n' "$*"; }

# Runs a helper that prints PASS/FAIL/NOTE lines itself and adds its lines to the tally.
tally() {
  local out status
  out="$("$@" 2>&1)"
  status=$?
  [[ -n "$out" ]] && printf '%s\n' "$out"
  PASSES=$((PASSES + $(grep -c '^PASS ' <<<"$out")))
  FAILURES=$((FAILURES + $(grep -c '^FAIL ' <<<"$out")))
  if [[ $status -ne 0 ]] && ! grep -q '^FAIL ' <<<"$out"; then
    fail "helper exited with status $status: $*"
  fi
  return $status
}

# HTTP status of a GET (000 when nothing answers).
http_status() {
  node -e '
    fetch(process.argv[1], { signal: AbortSignal.timeout(3000) })
      .then((r) => console.log(r.status), () => console.log("000"));
  ' "$1"
}

free_port() {
  node -e '
    const s = require("node:net").createServer();
    s.listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); });
  '
}

# ---------------------------------------------------------------------------------------------
# The Dockerfile reader and stage simulator (Node, no dependencies).
# ---------------------------------------------------------------------------------------------
cat >"$TMP/dockerfile-check.cjs" <<'NODE'
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const [, , mode, ROOT, DOCKERFILE, TMP, QUICK] = process.argv;
const quick = QUICK === '1';
const out = (kind, msg) => console.log(`${kind.padEnd(4)}  ${msg}`);
const PASS = (m) => out('PASS', m);
const FAIL = (m) => out('FAIL', m);
const NOTE = (m) => out('NOTE', m);

// ---- Dockerfile parsing ----------------------------------------------------------------
function parseDockerfile(text) {
  const instrs = [];
  let buf = '';
  let start = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\r$/, '');
    const t = line.trim();
    if (t.startsWith('#')) continue; // comments (also between continuation lines)
    if (t === '' && buf === '') continue;
    if (buf === '') start = i + 1;
    if (/\\\s*$/.test(line)) {
      buf += line.replace(/\\\s*$/, '') + ' ';
      continue;
    }
    buf += line;
    if (buf.trim()) instrs.push({ line: start, text: buf.trim() });
    buf = '';
  }
  if (buf.trim()) instrs.push({ line: start, text: buf.trim() });

  const stages = [];
  for (const ins of instrs) {
    const m = /^([A-Za-z]+)\s+([\s\S]*)$/.exec(ins.text);
    if (!m) throw new Error(`line ${ins.line}: cannot read "${ins.text}"`);
    const kw = m[1].toUpperCase();
    const rest = m[2].trim();
    if (kw === 'FROM') {
      const toks = rest.split(/\s+/).filter((t) => !t.startsWith('--'));
      const name = toks.length >= 3 && toks[1].toLowerCase() === 'as' ? toks[2] : null;
      stages.push({ index: stages.length, name, base: toks[0], line: ins.line, instrs: [] });
      continue;
    }
    if (!stages.length) {
      if (kw === 'ARG') continue;
      throw new Error(`line ${ins.line}: ${kw} before FROM`);
    }
    const stage = stages[stages.length - 1];
    const parsed = { kw, line: ins.line, rest };
    if (kw === 'COPY' || kw === 'ADD') {
      if (rest.includes('[')) throw new Error(`line ${ins.line}: JSON-form ${kw} is not supported by this checker`);
      const toks = rest.split(/\s+/);
      parsed.flags = {};
      while (toks.length && toks[0].startsWith('--')) {
        const [k, v] = toks.shift().slice(2).split('=');
        parsed.flags[k] = v ?? true;
      }
      parsed.dest = toks.pop();
      parsed.srcs = toks;
      parsed.from = parsed.flags.from ?? null;
    } else if (kw === 'ENV') {
      parsed.env = {};
      if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(rest)) {
        const re = /([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g;
        let mm;
        while ((mm = re.exec(rest))) parsed.env[mm[1]] = mm[2].replace(/^(["'])([\s\S]*)\1$/, '$2');
      } else {
        const [k, ...v] = rest.split(/\s+/);
        parsed.env[k] = v.join(' ');
      }
    } else if (kw === 'CMD' || kw === 'ENTRYPOINT') {
      parsed.exec = rest.startsWith('[') ? JSON.parse(rest) : null;
    } else if (kw === 'HEALTHCHECK') {
      const opts = {};
      let r = rest;
      let mm;
      while ((mm = /^--([a-z-]+)=(\S+)\s+/.exec(r))) {
        opts[mm[1]] = mm[2];
        r = r.slice(mm[0].length);
      }
      parsed.options = opts;
      if (/^NONE$/i.test(r)) parsed.none = true;
      else {
        const c = /^CMD\s+([\s\S]*)$/i.exec(r);
        if (!c) throw new Error(`line ${ins.line}: HEALTHCHECK without CMD`);
        parsed.exec = c[1].startsWith('[') ? JSON.parse(c[1]) : null;
        parsed.shell = parsed.exec ? null : c[1];
      }
    } else if (kw === 'EXPOSE') {
      parsed.ports = rest.split(/\s+/).map((p) => p.replace(/\/(tcp|udp)$/, ''));
    }
    stage.instrs.push(parsed);
  }
  return stages;
}

// ---- .dockerignore ---------------------------------------------------------------------
function ignoreFile() {
  // BuildKit prefers <Dockerfile>.dockerignore next to the Dockerfile over the context's file.
  const specific = `${DOCKERFILE}.dockerignore`;
  if (fs.existsSync(specific)) return specific;
  return path.join(ROOT, '.dockerignore');
}
function escapeRe(c) {
  return c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
}
function globToRe(p) {
  let re = '';
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '*') {
      if (p[i + 1] === '*') {
        i++;
        if (p[i + 1] === '/') {
          i++;
          re += '(?:.*/)?';
        } else re += '.*';
      } else re += '[^/]*';
    } else if (c === '?') re += '[^/]';
    else if (c === '\\' && i + 1 < p.length) re += escapeRe(p[++i]);
    else re += escapeRe(c);
  }
  return new RegExp(`^${re}$`);
}
function loadIgnore() {
  const file = ignoreFile();
  if (!fs.existsSync(file)) return { file: null, rules: [] };
  const rules = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((raw) => {
      let p = raw;
      const neg = p.startsWith('!');
      if (neg) p = p.slice(1).trim();
      p = path.posix.normalize(p).replace(/^\/+/, '').replace(/\/+$/, '');
      return { raw, neg, re: globToRe(p) };
    });
  return { file, rules };
}
// Like Docker's matcher: the last rule that matches the path or one of its parents decides.
function excludedBy(rel, rules) {
  const parts = rel.split('/');
  let by = null;
  for (const r of rules) {
    for (let n = 1; n <= parts.length; n++) {
      if (r.re.test(parts.slice(0, n).join('/'))) {
        by = r.neg ? null : r.raw;
        break;
      }
    }
  }
  return by;
}
function listFiles(abs) {
  const st = fs.lstatSync(abs);
  if (!st.isDirectory()) return [abs];
  return fs.readdirSync(abs).flatMap((e) => listFiles(path.join(abs, e)));
}

// ---- shared helpers ---------------------------------------------------------------------
const stages = parseDockerfile(fs.readFileSync(DOCKERFILE, 'utf8'));
const finalStage = stages[stages.length - 1];
const stageByRef = (ref) => stages.find((s) => s.name === ref || String(s.index) === ref);
const all = (stage, kw) => stage.instrs.filter((i) => i.kw === kw);
const last = (stage, kw) => all(stage, kw).pop();
const stageEnv = (stage) => Object.assign({}, ...all(stage, 'ENV').map((i) => i.env));
const rel = (p) => path.relative(ROOT, p) || '.';
function workdirAt(stage, idx) {
  let wd = '/';
  for (const ins of stage.instrs.slice(0, idx)) if (ins.kw === 'WORKDIR') wd = path.posix.resolve(wd, ins.rest);
  return wd;
}
function copiedNames(stage) {
  const names = [];
  stage.instrs.forEach((ins, idx) => {
    if (ins.kw !== 'COPY' && ins.kw !== 'ADD') return;
    const wd = workdirAt(stage, idx);
    const destAbs = path.posix.resolve(wd, ins.dest);
    const asDir = ins.dest.endsWith('/') || ins.srcs.length > 1;
    for (const s of ins.srcs) names.push({ ins, abs: asDir ? path.posix.join(destAbs, path.posix.basename(s)) : destAbs, wd });
  });
  return names;
}

// ---- static checks ------------------------------------------------------------------------
function analyze() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  PASS(`Dockerfile parsed: ${stages.length} stages (${stages.map((s) => `${s.name ?? s.index} from ${s.base}`).join(', ')})`);

  // Stages and --from references.
  if (stages.length >= 2) PASS('multi-stage build');
  else FAIL('expected a build stage and a runtime stage');
  const names = stages.map((s) => s.name).filter(Boolean);
  if (new Set(names).size !== names.length) FAIL(`duplicate stage names: ${names.join(', ')}`);
  for (const s of stages)
    for (const ins of all(s, 'COPY')) {
      if (!ins.from) continue;
      const src = stageByRef(ins.from);
      if (!src) FAIL(`line ${ins.line}: COPY --from=${ins.from} names no stage`);
      else if (src.index >= s.index) FAIL(`line ${ins.line}: COPY --from=${ins.from} is not an earlier stage`);
    }
  for (const ins of stages.flatMap((s) => all(s, 'ADD'))) FAIL(`line ${ins.line}: use COPY, not ADD`);

  // Base images: Node version against engines; the native addon needs the same Node in both stages.
  const majors = stages.map((s) => /^node:(\d+)/.exec(s.base)?.[1]);
  if (majors.some((m) => !m)) FAIL(`every stage should start from an official node:<major> image: ${stages.map((s) => s.base).join(', ')}`);
  const bases = new Set(stages.map((s) => s.base));
  if (bases.size === 1) PASS(`all stages use ${[...bases][0]} (better-sqlite3 is compiled for the Node ABI it runs on)`);
  else {
    const bm = new Set(majors);
    if (bm.size === 1) NOTE(`stages use different images of the same Node major: ${[...bases].join(', ')}`);
    else FAIL(`the build and runtime stages use different Node majors (${[...bases].join(', ')}): the compiled better-sqlite3 would not load`);
  }
  if (/slim/.test(finalStage.base)) PASS(`runtime stage is a slim image (${finalStage.base})`);
  else NOTE(`runtime stage is not a slim image (${finalStage.base})`);
  let semver = null;
  try {
    semver = require(path.join(ROOT, 'node_modules', 'semver'));
  } catch {}
  const major = majors[majors.length - 1];
  if (semver && major) {
    const range = `${major}.x`;
    const wanted = pkg.engines?.node;
    if (!wanted) NOTE('package.json has no engines.node');
    else if (semver.subset(range, wanted)) PASS(`Node ${range} satisfies package.json engines.node "${wanted}"`);
    else if (semver.intersects(range, wanted)) NOTE(`only some Node ${range} releases satisfy engines.node "${wanted}"`);
    else FAIL(`Node ${range} does not satisfy package.json engines.node "${wanted}"`);
    const bad = [];
    const partial = [];
    for (const [key, meta] of Object.entries(lock.packages ?? {})) {
      const e = meta.engines?.node;
      if (!key || typeof e !== 'string') continue;
      try {
        if (!semver.intersects(range, e)) bad.push(`${key.replace(/^.*node_modules\//, '')} (${e})`);
        else if (!semver.subset(range, e)) partial.push(`${key.replace(/^.*node_modules\//, '')} (${e})`);
      } catch {}
    }
    if (bad.length) FAIL(`lockfile packages that refuse Node ${range}: ${bad.join(', ')}`);
    else PASS(`every lockfile package's engines.node accepts Node ${range}`);
    if (partial.length) NOTE(`accept only part of Node ${range} (fine on a current 22.x): ${partial.join(', ')}`);
  } else NOTE('semver not installed in node_modules; engines not checked');

  // Native toolchain for better-sqlite3 in the stage that runs `npm ci`.
  // Packages with an install script that compile C/C++ (binding.gyp), e.g. better-sqlite3.
  const nativeDeps = Object.entries(lock.packages ?? {})
    .filter(([k, m]) => k && m.hasInstallScript && !m.dev && !m.optional)
    .map(([k]) => k)
    .filter((k) => fs.existsSync(path.join(ROOT, k, 'binding.gyp')))
    .map((k) => k.replace(/^.*node_modules\//, ''));
  for (const s of stages) {
    const runs = all(s, 'RUN').map((r) => r.rest);
    if (!runs.some((r) => /\bnpm\s+(ci|install|i)\b/.test(r))) continue;
    const apt = runs.find((r) => /apt-get\s+install/.test(r)) ?? '';
    const missing = ['python3', 'make', 'g++'].filter((p) => !new RegExp(`(^|\\s)${escapeRe(p)}(\\s|$)`).test(apt));
    if (missing.length) FAIL(`stage ${s.name ?? s.index} runs npm install but does not apt-get install ${missing.join(', ')} (needed to compile ${nativeDeps.join(', ')})`);
    else PASS(`stage ${s.name ?? s.index} installs python3, make, g++ for the native build of ${nativeDeps.join(', ')}`);
    if (/rm -rf \/var\/lib\/apt\/lists/.test(apt)) PASS('apt lists removed in the same layer');
    else NOTE('apt lists are not removed after apt-get install');
  }

  // Runtime stage.
  const fs_ = finalStage;
  const env = stageEnv(fs_);
  const userIns = last(fs_, 'USER');
  const user = userIns?.rest.split(':')[0];
  if (user && user !== 'root' && user !== '0') PASS(`runtime runs as non-root user "${userIns.rest}"`);
  else FAIL('runtime stage has no USER, or runs as root');
  const wd = workdirAt(fs_, fs_.instrs.length);
  if (wd === '/app') PASS('runtime WORKDIR /app');
  else FAIL(`runtime WORKDIR is ${wd}, expected /app`);
  if (env.NODE_ENV === 'production') PASS('ENV NODE_ENV=production');
  else FAIL(`runtime ENV NODE_ENV is "${env.NODE_ENV ?? ''}", expected production`);
  const exposed = all(fs_, 'EXPOSE').flatMap((i) => i.ports);
  if (env.PORT && exposed.includes(env.PORT)) PASS(`ENV PORT=${env.PORT} matches EXPOSE ${exposed.join(' ')}`);
  else FAIL(`ENV PORT (${env.PORT ?? 'unset'}) is not among EXPOSE (${exposed.join(' ') || 'none'})`);
  const cmd = last(fs_, 'CMD');
  const entry = last(fs_, 'ENTRYPOINT');
  if (entry) NOTE(`the Dockerfile sets ENTRYPOINT ${entry.rest}`);
  if (cmd?.exec && cmd.exec[0] === 'node' && cmd.exec.length >= 2) PASS(`CMD in exec form: ${JSON.stringify(cmd.exec)} (node is PID 1 and receives SIGTERM)`);
  else FAIL(`CMD should be exec form ["node", "<script>"], got ${cmd?.rest ?? 'none'}`);
  const hc = last(fs_, 'HEALTHCHECK');
  if (!hc || hc.none) FAIL('no HEALTHCHECK in the runtime stage');
  else {
    const text = hc.exec ? hc.exec.join(' ') : hc.shell;
    if (hc.exec && hc.exec[0] === 'node') PASS(`HEALTHCHECK runs node (exec form, options ${JSON.stringify(hc.options)})`);
    else FAIL(`HEALTHCHECK should run node in exec form (no curl/wget in slim), got: ${text}`);
    if (/\bcurl\b|\bwget\b/.test(text)) FAIL('HEALTHCHECK uses curl/wget, which the slim image lacks');
    if (/127\.0\.0\.1/.test(text) && /\/health\b/.test(text)) PASS('HEALTHCHECK fetches http://127.0.0.1:<PORT>/health');
    else FAIL('HEALTHCHECK does not fetch 127.0.0.1 .../health');
    if (!hc.options.timeout) NOTE('HEALTHCHECK has no --timeout');
  }

  // Runtime content: only what the server needs.
  const allowed = ['dist', 'i18n', 'node_modules', 'package.json', 'package-lock.json'];
  const copied = copiedNames(fs_).map((c) => path.posix.relative(wd, c.abs));
  const extra = copied.filter((c) => !allowed.includes(c));
  const lacking = allowed.filter((a) => !copied.includes(a));
  if (!extra.length && !lacking.length) PASS(`runtime copies exactly: ${copied.join(', ')}`);
  else FAIL(`runtime copies ${copied.join(', ')}${extra.length ? `; unexpected: ${extra.join(', ')}` : ''}${lacking.length ? `; missing: ${lacking.join(', ')}` : ''}`);
  const nm = all(fs_, 'COPY').find((c) => c.from && c.srcs.some((s) => /node_modules\/?$/.test(s)));
  if (nm) {
    const from = stageByRef(nm.from);
    const pruned = all(from, 'RUN').some((r) => /npm\s+(prune|ci)\b[^;&|]*(--omit[= ]dev|--production)/.test(r.rest));
    if (pruned) PASS(`node_modules comes from stage ${nm.from} after dropping dev dependencies (npm prune/ci --omit=dev)`);
    else FAIL(`node_modules is copied from stage ${nm.from}, which never removes dev dependencies`);
  }
  // /app/data: created and handed to the user before USER switches away from root.
  const userIdx = fs_.instrs.indexOf(userIns);
  const dataRun = fs_.instrs.findIndex((i) => i.kw === 'RUN' && /mkdir\s+(-p\s+)?\S*\/app\/data\b/.test(i.rest));
  if (dataRun < 0) FAIL('runtime stage does not create /app/data');
  else {
    const r = fs_.instrs[dataRun].rest;
    if (user && new RegExp(`chown\\s+(-R\\s+)?${escapeRe(user)}(:\\S+)?\\s+\\S*/app/data\\b`).test(r)) PASS(`/app/data is created and owned by ${user}`);
    else FAIL(`/app/data is not chowned to ${user}`);
    if (userIdx >= 0 && dataRun > userIdx) FAIL('/app/data is created after USER (mkdir/chown would run unprivileged)');
  }

  // COPY sources from the build context, and .dockerignore.
  const { file: ign, rules } = loadIgnore();
  if (ign) PASS(`${rel(ign)} read (${rules.map((r) => r.raw).join(', ')})`);
  else NOTE('no .dockerignore: the whole repository (node_modules, .git, ...) is sent as build context');
  const hostOnly = ['node_modules', 'dist', '.git', 'data'];
  const notIgnored = hostOnly.filter((p) => !excludedBy(p, rules));
  if (notIgnored.length) NOTE(`.dockerignore does not exclude ${notIgnored.join(', ')} (only context size: the Dockerfile copies named paths)`);
  else PASS(`.dockerignore keeps ${hostOnly.join(', ')} out of the build context`);
  for (const s of stages)
    for (const ins of all(s, 'COPY')) {
      if (ins.from) continue;
      for (const src of ins.srcs) {
        const abs = path.resolve(ROOT, src);
        if (!abs.startsWith(ROOT)) {
          FAIL(`line ${ins.line}: COPY ${src} points outside the build context`);
          continue;
        }
        if (!fs.existsSync(abs)) {
          FAIL(`line ${ins.line}: COPY ${src}: not in the repository`);
          continue;
        }
        const files = listFiles(abs);
        const excluded = files.map((f) => [rel(f), excludedBy(rel(f), rules)]).filter(([, by]) => by);
        if (excluded.length)
          FAIL(`line ${ins.line}: COPY ${src}: ${excluded.length} file(s) excluded by .dockerignore, e.g. ${excluded.slice(0, 3).map(([f, by]) => `${f} (${by})`).join(', ')}`);
        else PASS(`line ${ins.line}: COPY ${src} (stage ${s.name ?? s.index}) exists, ${files.length} file(s), none excluded by .dockerignore`);
      }
    }
  for (const s of stages)
    for (const ins of all(s, 'COPY'))
      if (ins.from) NOTE(`line ${ins.line}: COPY --from=${ins.from} ${ins.srcs.join(' ')}: must be produced by that stage (checked by the simulation)`);

  // Cross-references for the other checks.
  fs.writeFileSync(
    path.join(TMP, 'dockerfile.json'),
    JSON.stringify({ port: env.PORT, expose: exposed, env, cmd: cmd?.exec ?? null, healthcheck: hc?.exec ?? null, workdir: wd, user }),
  );
}

// ---- stage simulation ---------------------------------------------------------------------
function simulate() {
  const { rules } = loadIgnore();
  const simBase = path.join(TMP, 'stages');
  const sim = (stage, abs) => path.join(simBase, stage.name ?? String(stage.index), abs);
  const logDir = path.join(TMP, 'logs');
  fs.mkdirSync(logDir, { recursive: true });
  let ok = true;
  let step = 0;
  const noted = new Set();
  const bad = (m) => {
    ok = false;
    FAIL(m);
  };

  for (const stage of stages) {
    const label = stage.name ?? String(stage.index);
    const isFinal = stage === finalStage;
    let wd = '/';
    const env = {};
    fs.mkdirSync(sim(stage, '/'), { recursive: true });
    for (const ins of stage.instrs) {
      if (!ok) return;
      if (ins.kw === 'WORKDIR') {
        wd = path.posix.resolve(wd, ins.rest);
        fs.mkdirSync(sim(stage, wd), { recursive: true });
      } else if (ins.kw === 'ENV') {
        Object.assign(env, ins.env);
      } else if (ins.kw === 'COPY') {
        const destAbs = path.posix.resolve(wd, ins.dest);
        const asDir = ins.dest.endsWith('/') || ins.srcs.length > 1;
        for (const src of ins.srcs) {
          let from;
          let filter;
          if (ins.from) {
            const s = stageByRef(ins.from);
            from = sim(s, path.posix.resolve('/', src));
            if (!fs.existsSync(from) && !isSymlink(from)) {
              bad(`[${label}] line ${ins.line}: COPY --from=${ins.from} ${src}: stage ${ins.from} did not produce ${src}`);
              return;
            }
          } else {
            from = path.resolve(ROOT, src);
            filter = (p) => {
              const r = path.relative(ROOT, p);
              return !r || !excludedBy(r, rules);
            };
          }
          const to = sim(stage, asDir ? path.posix.join(destAbs, path.basename(src)) : destAbs);
          fs.mkdirSync(path.dirname(to), { recursive: true });
          fs.cpSync(from, to, { recursive: true, verbatimSymlinks: true, force: true, filter });
        }
        PASS(`[${label}] line ${ins.line}: COPY ${ins.from ? `--from=${ins.from} ` : ''}${ins.srcs.join(' ')} -> ${destAbs}`);
      } else if (ins.kw === 'RUN') {
        const cmd = ins.rest;
        if (isFinal) {
          // The runtime stage's RUN lines work on absolute paths (/app/...): only mkdir is replayed.
          const mk = /mkdir\s+(?:-p\s+)?(\S+)/.exec(cmd);
          const onlyFs = cmd.split('&&').every((part) => /^\s*(mkdir|chown|chmod)\s/.test(part));
          if (mk && onlyFs) {
            fs.mkdirSync(sim(stage, path.posix.resolve(wd, mk[1])), { recursive: true });
            NOTE(`[${label}] line ${ins.line}: replayed only the mkdir of "${cmd}" (chown needs root; checked statically)`);
          } else bad(`[${label}] line ${ins.line}: this checker cannot replay "${cmd}" in the runtime stage; teach docker/check.sh`);
          continue;
        }
        if (/\bapt-get\b/.test(cmd)) {
          const tools = ['python3', 'make', 'g++'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
          if (tools.length) bad(`[${label}] line ${ins.line}: apt-get skipped, but ${tools.join(', ')} missing on this machine`);
          else NOTE(`[${label}] line ${ins.line}: apt-get skipped (python3, make, g++ are installed here)`);
          continue;
        }
        const cwd = sim(stage, wd);
        if (quick && /^npm\s+ci\b/.test(cmd)) {
          fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(cwd, 'node_modules'));
          NOTE(`[${label}] line ${ins.line}: --quick: "${cmd}" replaced by a symlink to the repository's node_modules`);
          continue;
        }
        if (quick && /\bnpm\s+prune\b/.test(cmd)) {
          NOTE(`[${label}] line ${ins.line}: --quick: skipped "${cmd.replace(/\s+/g, ' ')}" (would prune the repository's node_modules)`);
          continue;
        }
        const runEnv = { ...process.env, ...env };
        for (const [k, v] of Object.entries(env)) {
          if (k.toLowerCase() === 'npm_config_nodedir' && !fs.existsSync(path.join(v, 'include/node/common.gypi'))) {
            delete runEnv[k];
            if (noted.has(k)) continue;
            noted.add(k);
            NOTE(`[${label}] ${k}=${v}: no Node headers there on this machine; npm's own configuration is used instead`);
          }
        }
        const log = path.join(logDir, `step-${++step}.log`);
        const fd = fs.openSync(log, 'w');
        const started = Date.now();
        const r = spawnSync('/bin/sh', ['-c', cmd], { cwd, env: runEnv, stdio: ['ignore', fd, fd], timeout: 20 * 60 * 1000 });
        fs.closeSync(fd);
        const secs = ((Date.now() - started) / 1000).toFixed(1);
        const short = cmd.replace(/\s+/g, ' ');
        if (r.status === 0) PASS(`[${label}] line ${ins.line}: RUN ${short.length > 90 ? `${short.slice(0, 90)}...` : short} (${secs}s)`);
        else {
          // The lines that say what went wrong, else the end of the log.
          const lines = fs.readFileSync(log, 'utf8').split('\n');
          const key = lines.filter((l) => /error code|Missing:|Invalid:|gyp ERR!|error TS\d+|Error:/.test(l)).slice(0, 20);
          bad(`[${label}] line ${ins.line}: RUN ${short} exited with ${r.status ?? r.signal} after ${secs}s; ${key.length ? 'errors' : 'log tail'}:`);
          console.log((key.length ? key : lines.slice(-30)).map((l) => `        ${l}`).join('\n'));
          return;
        }
      }
    }
  }

  // What the runtime stage ended up with.
  const wd = workdirAt(finalStage, finalStage.instrs.length);
  const app = sim(finalStage, wd);
  const entries = fs.readdirSync(app).sort();
  PASS(`simulated runtime ${wd}: ${entries.join(', ')}`);
  const cmd = last(finalStage, 'CMD')?.exec;
  const script = cmd && path.join(app, cmd[1]);
  if (script && fs.existsSync(script)) PASS(`CMD script ${cmd[1]} exists in the runtime layout`);
  else bad(`CMD script ${cmd?.[1]} is missing from the runtime layout`);
  const cli = path.join(app, 'dist/cli/main.js');
  if (fs.existsSync(cli)) PASS('user CLI dist/cli/main.js exists in the runtime layout');
  else bad('dist/cli/main.js is missing from the runtime layout');
  // paths.ts walks up from dist/ to the first folder holding i18n/.
  let d = path.dirname(script ?? app);
  let found = null;
  for (let i = 0; i < 5 && !found; i++, d = path.dirname(d)) if (fs.existsSync(path.join(d, 'i18n'))) found = d;
  if (found === app) PASS(`i18n/ is found by walking up from dist/ (${path.relative(app, path.join(found, 'i18n'))})`);
  else bad(`walking up from dist/ finds i18n/ in ${found ?? 'no folder'}, not in ${app}`);
  const nm = path.join(app, 'node_modules');
  if (isSymlink(nm)) NOTE(`runtime node_modules is a symlink to ${fs.readlinkSync(nm)} (--quick)`);
  else {
    // Dev-only packages are those the lockfile marks "dev": true. A devDependency that a production
    // package also needs as a peer (lockfile: no flag, or devOptional for a peerOptional) is kept
    // by `npm ci --omit=dev` / `npm prune --omit=dev` alike, so it is only reported.
    const lock = JSON.parse(fs.readFileSync(path.join(app, 'package-lock.json'), 'utf8')).packages ?? {};
    const devOnly = Object.entries(lock)
      .filter(([k, m]) => k && m.dev && fs.existsSync(path.join(app, k)))
      .map(([k]) => k.replace(/^node_modules\//, ''));
    if (devOnly.length) bad(`dev-only packages in the runtime node_modules: ${devOnly.slice(0, 10).join(', ')}${devOnly.length > 10 ? ', ...' : ''}`);
    else PASS(`no dev-only packages in the runtime node_modules (${Object.entries(lock).filter(([k, m]) => k && m.dev).length} in the lockfile)`);
    const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
    const kept = Object.keys(pkg.devDependencies ?? {}).filter((n) => fs.existsSync(path.join(nm, n)));
    if (kept.length)
      NOTE(`devDependencies kept because production packages declare them as peers: ${kept
        .map((n) => `${n} (${lock[`node_modules/${n}`]?.devOptional ? 'devOptional' : 'peer'}, ${spawnSync('du', ['-sh', path.join(nm, n)], { encoding: 'utf8' }).stdout.split('\t')[0]})`)
        .join(', ')}`);
    const addon = path.join(nm, 'better-sqlite3/build/Release/better_sqlite3.node');
    if (fs.existsSync(addon)) PASS(`better-sqlite3 native addon present (${(fs.statSync(addon).size / 1e6).toFixed(1)} MB)`);
    else bad('better-sqlite3/build/Release/better_sqlite3.node is missing');
    const size = spawnSync('du', ['-sh', nm], { encoding: 'utf8' }).stdout.split('\t')[0];
    NOTE(`runtime node_modules: ${size}`);
  }
  const probe = spawnSync(process.execPath, ['-e', "const D = require('better-sqlite3'); console.log(new D(':memory:').prepare('select sqlite_version() v').get().v)"], {
    cwd: app,
    encoding: 'utf8',
  });
  if (probe.status === 0) PASS(`better-sqlite3 loads in the runtime layout (SQLite ${probe.stdout.trim()})`);
  else bad(`better-sqlite3 does not load in the runtime layout: ${probe.stderr.trim().split('\n').slice(0, 3).join(' | ')}`);
  fs.writeFileSync(path.join(TMP, 'runtime-dir'), app);
}

function isSymlink(p) {
  try {
    return fs.lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

try {
  if (mode === 'analyze') analyze();
  else if (mode === 'simulate') simulate();
  else throw new Error(`unknown mode ${mode}`);
} catch (error) {
  FAIL(`${mode}: ${error.message}`);
  process.exit(1);
}
NODE

# ---------------------------------------------------------------------------------------------
echo "Docker setup check ($([[ $QUICK -eq 1 ]] && echo quick || echo full)); Node $(node -v), npm $(npm -v); temp: $TMP"

section "Dockerfile and .dockerignore (static)"
if [[ ! -f "$DOCKERFILE" ]]; then
  fail "docker/Dockerfile not found"
else
  pass "docker/Dockerfile exists"
  tally node "$TMP/dockerfile-check.cjs" analyze "$ROOT" "$DOCKERFILE" "$TMP" "$QUICK"
fi
[[ -f "$ROOT/.dockerignore" ]] && pass ".dockerignore exists" || fail ".dockerignore is missing (node_modules, dist, .git would go into the build context)"
if [[ -f "$DOCKERFILE.dockerignore" ]]; then
  note "docker/Dockerfile.dockerignore exists and takes precedence over .dockerignore (BuildKit)"
fi

# `RUN npm ci` refuses a lockfile that does not match package.json; --quick would not notice,
# so ask npm (dry run, only the two manifests, nothing installed).
mkdir -p "$TMP/lockfile"
cp "$ROOT/package.json" "$ROOT/package-lock.json" "$TMP/lockfile/"
lock_out="$(cd "$TMP/lockfile" && npm ci --dry-run --ignore-scripts --no-audit --no-fund 2>&1)"
if [[ $? -eq 0 ]]; then
  pass "package-lock.json is in sync with package.json (npm ci --dry-run accepts it)"
else
  problems="$(grep -E '^npm error (Missing|Invalid)' <<<"$lock_out" | sed 's/^npm error //')"
  count="$(grep -c . <<<"$problems")"
  fail "npm ci rejects package-lock.json, so \`RUN npm ci\` would stop the image build: ${count} problem(s), e.g. $(head -3 <<<"$problems" | paste -sd ';' | sed 's/;/; /g')"
  [[ -z "$problems" ]] && tail -5 <<<"$lock_out" | sed 's/^/        /'
fi

section "Build and runtime stages (simulated; npm ci $([[ $QUICK -eq 1 ]] && echo 'replaced by a symlink' || echo 'for real'))"
if [[ -f "$TMP/dockerfile.json" ]]; then
  tally node "$TMP/dockerfile-check.cjs" simulate "$ROOT" "$DOCKERFILE" "$TMP" "$QUICK"
else
  fail "skipped: the Dockerfile could not be read"
fi

section "Start command in the runtime layout"
APP_DIR="$(cat "$TMP/runtime-dir" 2>/dev/null || true)"
if [[ -z "$APP_DIR" ]]; then
  fail "skipped: no runtime layout"
else
  mapfile -t CMD_ARGV < <(node -e 'for (const a of JSON.parse(require("fs").readFileSync(process.argv[1])).cmd) console.log(a)' "$TMP/dockerfile.json")
  mapfile -t IMAGE_ENV < <(node -e 'for (const [k, v] of Object.entries(JSON.parse(require("fs").readFileSync(process.argv[1])).env)) console.log(`${k}=${v}`)' "$TMP/dockerfile.json")
  PORT_FREE="$(free_port)"
  DB_DIR="$TMP/data"
  DB_URL="sqlite:$DB_DIR/cal.sqlite"
  # The image's ENV, then what this check needs: a free port and a database in the temp folder.
  RUN_ENV=("${IMAGE_ENV[@]}" "PORT=$PORT_FREE" "DATABASE_URL=$DB_URL" "ADMIN_LOGIN=admin" "ADMIN_PASSWORD=check-password")
  note "starting: (cd ${APP_DIR#"$TMP"/} && ${RUN_ENV[*]} ${CMD_ARGV[*]})"
  (cd "$APP_DIR" && exec env "${RUN_ENV[@]}" "${CMD_ARGV[@]}") >"$TMP/server.log" 2>&1 &
  SERVER_PID=$!
  BASE="http://127.0.0.1:$PORT_FREE"
  status=000
  started=$SECONDS
  while ((SECONDS - started < 90)); do
    kill -0 "$SERVER_PID" 2>/dev/null || break
    status="$(http_status "$BASE/health")"
    [[ "$status" == 200 ]] && break
    sleep 1
  done
  if [[ "$status" == 200 ]]; then
    pass "GET /health -> 200 after $((SECONDS - started))s"
    ev="$(http_status "$BASE/cal/events/v1")"
    [[ "$ev" == 200 ]] && pass "GET /cal/events/v1 -> 200" || fail "GET /cal/events/v1 -> $ev"
    [[ -f "$DB_DIR/cal.sqlite" ]] && pass "SQLite database created at \$DATABASE_URL (migrations ran)" || fail "no SQLite file at $DB_DIR/cal.sqlite"

    # The image's HEALTHCHECK command, as Docker would run it inside the container.
    mapfile -t HC_ARGV < <(node -e 'const h = JSON.parse(require("fs").readFileSync(process.argv[1])).healthcheck; for (const a of h ?? []) console.log(a)' "$TMP/dockerfile.json")
    if ((${#HC_ARGV[@]})); then
      if (cd "$APP_DIR" && env "PORT=$PORT_FREE" timeout 10 "${HC_ARGV[@]}"); then
        pass "HEALTHCHECK command exits 0 against the running server"
      else
        fail "HEALTHCHECK command exits $? against the running server"
      fi
      if (cd "$APP_DIR" && env "PORT=$(free_port)" timeout 10 "${HC_ARGV[@]}"); then
        fail "HEALTHCHECK command exits 0 with nothing listening"
      else
        pass "HEALTHCHECK command fails when nothing listens"
      fi
    fi

    # The user CLI from the same layout, on the same database while the server runs (WAL).
    cli_out="$(cd "$APP_DIR" && env "${RUN_ENV[@]}" node dist/cli/main.js user:create check-admin --role administrator 2>&1)"
    cli_status=$?
    if [[ $cli_status -eq 0 ]] && grep -q 'Created administrator "check-admin"' <<<"$cli_out"; then
      pass "CLI: node dist/cli/main.js user:create check-admin --role administrator"
    else
      fail "CLI user:create exited $cli_status: $(head -3 <<<"$cli_out")"
    fi
  else
    fail "GET /health did not answer 200 (last status $status); server log:"
    tail -40 "$TMP/server.log" | sed 's/^/        /'
  fi

  # docker stop sends SIGTERM; the server should close and exit on its own.
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID"
    stopped=0
    for _ in $(seq 1 20); do
      kill -0 "$SERVER_PID" 2>/dev/null || {
        stopped=1
        break
      }
      sleep 0.5
    done
    wait "$SERVER_PID" 2>/dev/null
    exit_code=$?
    if [[ $stopped -eq 1 && ($exit_code -eq 0 || $exit_code -eq 143) ]]; then
      # 143 = 128 + SIGTERM: Nest's shutdown hooks close the app, then re-raise the signal.
      pass "server shut down on SIGTERM (exit status $exit_code)"
    elif [[ $stopped -eq 1 ]]; then
      fail "server exited with status $exit_code on SIGTERM; log tail:"
      tail -20 "$TMP/server.log" | sed 's/^/        /'
    else
      fail "server still running 10s after SIGTERM"
      kill -KILL "$SERVER_PID" 2>/dev/null
    fi
  fi
  SERVER_PID=""
fi

section "docker/compose.yaml"
COMPOSE_ENV_JSON="$TMP/compose-api-env.json"
if [[ ! -f "$COMPOSE" ]]; then
  fail "docker/compose.yaml not found"
elif python3 -c 'import yaml' 2>/dev/null; then
  tally python3 - "$COMPOSE" "$ROOT" "$TMP/dockerfile.json" "$COMPOSE_ENV_JSON" <<'PY'
import json, os, re, sys
import yaml

compose_path, root, dockerfile_json, env_out = sys.argv[1:5]
out = lambda kind, msg: print(f"{kind:<4}  {msg}")
ok = lambda m: out("PASS", m)
bad = lambda m: out("FAIL", m)
note = lambda m: out("NOTE", m)

text = open(compose_path, encoding="utf-8").read()
try:
    doc = yaml.safe_load(text)
except yaml.YAMLError as e:
    bad(f"compose.yaml is not valid YAML: {e}")
    sys.exit(0)
ok("compose.yaml parses as YAML")

# Compose interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?err}, $$ for a literal $.
stripped = re.sub(r"\$\$", "", text)
bad_dollars = re.findall(r"\$(?!\{[A-Za-z_][A-Za-z0-9_]*(?::?[-?+][^}]*)?\}|[A-Za-z_])", stripped)
if bad_dollars:
    bad(f"invalid $ interpolation in compose.yaml: {bad_dollars}")
else:
    ok("every $ is a valid interpolation (${VAR:-default}) or escaped ($$)")

def interpolate(value):
    """What compose makes of ${VAR:-default} with the variable unset."""
    if not isinstance(value, str):
        return value
    value = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?-([^}]*)\}", lambda m: m.group(2), value)
    return value.replace("$$", "$")

def env_dict(svc):
    env = svc.get("environment") or {}
    if isinstance(env, list):
        env = dict(e.split("=", 1) if "=" in e else (e, None) for e in env)
    return {k: (None if v is None else str(v)) for k, v in env.items()}

try:
    df = json.load(open(dockerfile_json))
except Exception:
    df = {}

services = (doc or {}).get("services") or {}
for name in ("db", "api"):
    (ok if name in services else bad)(f"service {name} defined")
db = services.get("db") or {}
api = services.get("api") or {}
top_volumes = (doc or {}).get("volumes") or {}

# db
(ok if db.get("image") == "mysql:8.4" else bad)(f"db image {db.get('image')!r}")
db_env = env_dict(db)
for key in ("MYSQL_DATABASE", "MYSQL_USER", "MYSQL_PASSWORD", "MYSQL_ROOT_PASSWORD"):
    (ok if db_env.get(key) else bad)(f"db environment {key}" + ("" if db_env.get(key) else " missing"))
cmd = db.get("command")
cmd_text = " ".join(cmd) if isinstance(cmd, list) else str(cmd or "")
for flag in ("--character-set-server=utf8mb4", "--collation-server=utf8mb4_unicode_ci"):
    (ok if flag in cmd_text else bad)(f"db command has {flag}")
vols = [str(v) for v in db.get("volumes") or []]
if any(v.split(":")[0] == "db-data" and v.split(":")[1] == "/var/lib/mysql" for v in vols if ":" in v):
    ok("db keeps /var/lib/mysql in the named volume db-data")
else:
    bad(f"db volumes {vols}: expected db-data:/var/lib/mysql")
(ok if "db-data" in top_volumes else bad)("top-level volumes declares db-data")
hc = (db.get("healthcheck") or {}).get("test")
hc_text = " ".join(hc) if isinstance(hc, list) else str(hc or "")
(ok if "mysqladmin ping" in hc_text else bad)(f"db healthcheck uses mysqladmin ping")
if "127.0.0.1" in hc_text or "--protocol=tcp" in hc_text:
    ok("db healthcheck pings over TCP (the image's init-time server listens on the socket only)")
else:
    note("db healthcheck pings over the socket: it may pass during the image's init-time server")
if isinstance(hc, list) and hc and hc[0] == "CMD-SHELL" and "$MYSQL" in hc_text.replace("$$MYSQL", ""):
    bad("db healthcheck uses $MYSQL_... unescaped: compose would interpolate it on the host (use $$)")

# api
build = api.get("build") or {}
context = os.path.normpath(os.path.join(os.path.dirname(compose_path), build.get("context", ".")))
dockerfile = os.path.join(context, build.get("dockerfile", "Dockerfile"))
(ok if context == os.path.normpath(root) else bad)(f"api build context resolves to {context}")
(ok if os.path.isfile(dockerfile) and os.path.samefile(dockerfile, os.path.join(root, "docker", "Dockerfile")) else bad)(
    f"api build dockerfile resolves to {os.path.relpath(dockerfile, root)}")
ports = [str(p) for p in api.get("ports") or []]
(ok if "3000:3000" in ports else bad)(f"api ports {ports}")
container_ports = {p.split(":")[-1].split("/")[0] for p in ports}
if df.get("expose"):
    (ok if container_ports <= set(df["expose"]) else bad)(f"published container port(s) {sorted(container_ports)} match the Dockerfile's EXPOSE {df['expose']}")
api_env = env_dict(api)
if api_env.get("PORT") and api_env["PORT"] not in container_ports:
    bad(f"api PORT={api_env['PORT']} is not the published container port")
(ok if api_env.get("SITE_URL") == "http://localhost:3000" else bad)(f"api SITE_URL {api_env.get('SITE_URL')!r}")
for key, default in (("ADMIN_LOGIN", "admin"), ("ADMIN_PASSWORD", "change-me-to-a-long-passphrase")):
    want = "${%s:-%s}" % (key, default)
    (ok if api_env.get(key) == want else bad)(f"api {key} = {api_env.get(key)!r}")
dep = (api.get("depends_on") or {})
cond = dep.get("db", {}).get("condition") if isinstance(dep, dict) else None
(ok if cond == "service_healthy" else bad)(f"api depends_on db condition {cond!r}")
(ok if api.get("restart") == "unless-stopped" else bad)(f"api restart {api.get('restart')!r}")

# DATABASE_URL against the db service.
from urllib.parse import urlsplit, unquote
url = interpolate(api_env.get("DATABASE_URL") or "")
u = urlsplit(url)
checks = [
    (u.scheme == "mysql", f"scheme {u.scheme!r} is mysql"),
    (u.hostname == "db", f"host {u.hostname!r} is the db service"),
    ((u.port or 3306) == 3306, f"port {u.port} is MySQL's 3306"),
    (unquote(u.username or "") == interpolate(db_env.get("MYSQL_USER")), "user matches MYSQL_USER"),
    (unquote(u.password or "") == interpolate(db_env.get("MYSQL_PASSWORD")), "password matches MYSQL_PASSWORD"),
    (u.path.lstrip("/") == interpolate(db_env.get("MYSQL_DATABASE")), "database matches MYSQL_DATABASE"),
]
for good, msg in checks:
    (ok if good else bad)(f"api DATABASE_URL: {msg}")

# The api's environment as the container would see it, for the application's own config check.
image_env = dict(df.get("env") or {})
image_env.update({k: interpolate(v) for k, v in api_env.items() if v is not None})
json.dump(image_env, open(env_out, "w"))
PY
else
  note "python3 with PyYAML not available: structural checks only"
  for pattern in '^services:' '^  db:' '^    image: mysql:8.4' 'MYSQL_DATABASE: calendar' 'MYSQL_USER:' 'MYSQL_PASSWORD:' \
    'MYSQL_ROOT_PASSWORD:' 'character-set-server=utf8mb4' 'collation-server=utf8mb4_unicode_ci' 'db-data:/var/lib/mysql' \
    'mysqladmin ping' '^  api:' 'context: \.\.' 'dockerfile: docker/Dockerfile' '"3000:3000"' \
    'DATABASE_URL: mysql://calendar:calendar@db:3306/calendar' 'condition: service_healthy' 'restart: unless-stopped' '^volumes:'; do
    grep -qE -- "$pattern" "$COMPOSE" && pass "compose.yaml has /$pattern/" || fail "compose.yaml lacks /$pattern/"
  done
  grep -qP '\t' "$COMPOSE" && fail "compose.yaml contains tabs (invalid YAML indentation)" || pass "compose.yaml has no tabs"
fi

# The api service's environment through the application's own validation (loadConfig in dist/).
if [[ -s "$COMPOSE_ENV_JSON" && -n "$APP_DIR" && -f "$APP_DIR/dist/config/config.js" ]]; then
  cfg_out="$(cd "$APP_DIR" && node --input-type=module -e '
    import { readFileSync } from "node:fs";
    import { loadConfig } from "./dist/config/config.js";
    const env = JSON.parse(readFileSync(process.argv[1], "utf8"));
    // The default ADMIN_PASSWORD is a placeholder that the operator must replace: refused as is.
    let refused = "";
    try { loadConfig(env); } catch (e) { refused = String(e.message); }
    if (!refused.includes("ADMIN_PASSWORD")) throw new Error("the placeholder ADMIN_PASSWORD is accepted");
    const c = loadConfig({ ...env, ADMIN_PASSWORD: "an operator passphrase" });
    const d = c.database;
    console.log(`${d.type}://${d.username}@${d.host}:${d.port}/${d.database}, port ${c.port}, site ${c.siteUrl}, admin ${c.admin ? c.admin.login : "none"} (placeholder password refused), migrations ${c.migrationsRun}`);
  ' "$COMPOSE_ENV_JSON" 2>&1)"
  if [[ $? -eq 0 ]]; then
    pass "the app's loadConfig accepts the api service environment: $cfg_out"
  else
    fail "the app's loadConfig rejects the api service environment: $cfg_out"
  fi
fi

section "Summary"
echo "$PASSES passed, $FAILURES failed ($([[ $QUICK -eq 1 ]] && echo quick || echo full) run)"
if ((FAILURES > 0)); then
  echo "RESULT: FAIL"
  exit 1
fi
echo "RESULT: PASS"
