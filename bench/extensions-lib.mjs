// What the extension modules (docs/extending.md; Virtual Events today) cost the events list: two
// servers of the same build on the same data, one with the modules, one started with
// BENCH_WITHOUT_EXTENSIONS=true (AppModule without them), loaded in turns round after round
// (bench/overhead-lib.mjs compareOverhead). Used by `npm run bench` and `npm run bench:extensions`.
import { mysqlConnection } from './lib.mjs';
import { compareOverhead } from './overhead-lib.mjs';
import { EXTENSIONS_TARGET } from './targets.mjs';

const VARIANTS = [
  ['without modules', { BENCH_WITHOUT_EXTENSIONS: 'true' }],
  ['with modules', {}],
];

/** Every 10th seeded event made virtual (the Virtual Events module's table), in one statement. */
export async function seedVirtual(url) {
  const sql =
    "INSERT INTO virtual_events (event_id, url, video_source) SELECT id, 'https://meet.example.org/bench', 'zoom' FROM events WHERE id % 10 = 0";
  if (url.startsWith('sqlite:')) {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(url.slice('sqlite:'.length));
    db.exec('DELETE FROM virtual_events');
    db.exec(sql);
    db.close();
    return;
  }
  const db = await mysqlConnection(url);
  try {
    await db.query('DELETE FROM virtual_events');
    await db.query(sql);
  } finally {
    await db.end();
  }
}

/** The default list and a page of 50, served (response cache on) and computed (off). */
export async function compareExtensions({ url, port, rounds, duration, connections, smoke }) {
  const common = { url, port, rounds, duration, connections, smoke, variants: VARIANTS };
  const runs = [
    await compareOverhead({
      ...common,
      paths: [['events: default list, served', '/cal/events/v1/events']],
    }),
  ];
  if (!smoke) {
    runs.push(
      await compareOverhead({
        ...common,
        env: { RESPONSE_CACHE_TTL_MS: '0' },
        paths: [
          ['events: default list, computed', '/cal/events/v1/events'],
          ['events: per_page=50, computed', '/cal/events/v1/events?per_page=50'],
        ],
      }),
    );
  }
  return runs;
}

const pct = (ratio) => `${ratio >= 1 ? '+' : '−'}${(Math.abs(ratio - 1) * 100).toFixed(1)} %`;

/** Markdown lines of the comparisons: per scenario, each server's figures and the change. */
export function extensionLines(runs) {
  const loads = runs.flatMap((r) => [r.loadBefore, r.loadAfter]);
  return [
    `Extension modules (target: the events list with the modules costs at most ${(EXTENSIONS_TARGET * 100).toFixed(0)} % more ` +
      'server CPU per request than without them): two servers of this build on the same data, one started with ' +
      `BENCH_WITHOUT_EXTENSIONS=true, loaded in turn, ${runs[0].rounds} rounds. Load average (1 min) between ` +
      `${Math.min(...loads).toFixed(1)} and ${Math.max(...loads).toFixed(1)}: CPU per request is the measure, ` +
      'req/s shown for what it is worth on a shared machine. "Change" is the median over the rounds of the ' +
      'server with the modules against the one without in the same round.',
    '',
    '| scenario | server | req/s (median) | p99 ms | req/s change | CPU ms/request | CPU change | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...runs
      .flatMap(({ results }) =>
        Object.entries(results).flatMap(([name, rows]) =>
          rows.map((r, i) =>
            [
              name,
              r.variant,
              r.rps,
              r.p99,
              i === 0 ? '–' : `${pct(r.ratio)} (${pct(r.ratioMin)} … ${pct(r.ratioMax)})`,
              r.cpuUs === null ? '–' : (r.cpuUs / 1000).toFixed(3),
              i === 0 || r.cpuRatio === null ? '–' : pct(r.cpuRatio),
              r.errors,
            ].join(' | '),
          ),
        ),
      )
      .map((row) => `| ${row} |`),
  ];
}

/** The scenarios where the modules cost more CPU per request than EXTENSIONS_TARGET. */
export function missedExtensionTargets(runs) {
  return runs.flatMap(({ results }) =>
    Object.entries(results)
      .map(([name, rows]) => [name, rows[1]])
      .filter(([, withModules]) => withModules?.cpuRatio != null)
      .filter(([, withModules]) => !(withModules.cpuRatio - 1 <= EXTENSIONS_TARGET))
      .map(
        ([name, withModules]) =>
          `${name} with the extension modules at ${(withModules.cpuRatio * 100).toFixed(1)} % of the CPU per request without (target ≤ ${(100 + EXTENSIONS_TARGET * 100).toFixed(0)} %)`,
      ),
  );
}
