// What the extension modules (docs/extending.md; Virtual Events today) cost the events list: two
// servers of the same build on the same data, one with the modules, one started with
// BENCH_WITHOUT_EXTENSIONS=true (AppModule without them), loaded in turns round after round
// (bench/overhead-lib.mjs compareOverhead), then with their ports swapped. Used by `npm run bench` and `npm run bench:extensions`.
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

/** The ports' order, both ways: the second server of a pair measures a few % more CPU. */
const ORDERS = [VARIANTS, VARIANTS.toReversed()];

/**
 * The default list and a page of 50, served (response cache on) and computed (off), each
 * compared twice with the servers' ports swapped; per scenario, the figures of both servers
 * (the mean of the two comparisons) and the change, the geometric mean of the two
 * comparisons' ratios of the server with the modules to the one without (a port's own bias
 * cancels out).
 */
export async function compareExtensions({ url, port, rounds, duration, connections, smoke }) {
  const groups = [
    { env: {}, paths: [['events: default list, served', '/cal/events/v1/events']] },
    ...(smoke
      ? []
      : [
          {
            env: { RESPONSE_CACHE_TTL_MS: '0' },
            paths: [
              ['events: default list, computed', '/cal/events/v1/events'],
              ['events: per_page=50, computed', '/cal/events/v1/events?per_page=50'],
            ],
          },
        ]),
  ];
  const scenarios = [];
  const loads = [];
  for (const { env, paths } of groups) {
    const both = [];
    // --smoke: one order (the run checks that each variant serves, not what it costs).
    for (const variants of smoke ? ORDERS.slice(0, 1) : ORDERS) {
      const run = await compareOverhead({
        url,
        port,
        rounds,
        duration,
        connections,
        smoke,
        env,
        paths,
        variants,
      });
      loads.push(run.loadBefore, run.loadAfter);
      both.push(run.results);
    }
    for (const [name] of paths) {
      const of = (results, variant) => results[name].find((r) => r.variant === variant);
      const rows = VARIANTS.map(([variant]) => {
        const runs = both.map((results) => of(results, variant));
        const mean = (pick) => {
          const values = runs.map(pick).filter((v) => v !== null);
          return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
        };
        return {
          variant,
          rps: Math.round(mean((r) => r.rps)),
          p99: mean((r) => r.p99),
          cpuUs: mean((r) => r.cpuUs),
          errors: runs.reduce((n, r) => n + r.errors, 0),
        };
      });
      // First order: "with" against "without"; second: "without" against "with" (--smoke: the
      // first again).
      const withFirst = of(both[0], 'with modules');
      const withoutSecond = of(both.at(-1), 'without modules');
      const cpuChange =
        withFirst.cpuRatio && withoutSecond.cpuRatio
          ? Math.sqrt(withFirst.cpuRatio / withoutSecond.cpuRatio)
          : null;
      const rpsChange = Math.sqrt(withFirst.ratio / withoutSecond.ratio);
      scenarios.push({
        name,
        rows,
        cpuChange,
        rpsChange,
        orders: [withFirst.cpuRatio, withoutSecond.cpuRatio ? 1 / withoutSecond.cpuRatio : null],
      });
    }
  }
  return { scenarios, rounds, loads };
}

const pct = (ratio) => `${ratio >= 1 ? '+' : '−'}${(Math.abs(ratio - 1) * 100).toFixed(1)} %`;

/** Markdown lines of the comparison: per scenario, each server's figures and the change. */
export function extensionLines({ scenarios, rounds, loads }) {
  return [
    `Extension modules (target: the events list with the modules costs at most ${(EXTENSIONS_TARGET * 100).toFixed(0)} % more ` +
      'server CPU per request than without them): two servers of this build on the same data, one started with ' +
      `BENCH_WITHOUT_EXTENSIONS=true, loaded in turn for ${rounds} rounds, then again with their ports swapped. Load average ` +
      `(1 min) between ${Math.min(...loads).toFixed(1)} and ${Math.max(...loads).toFixed(1)}: CPU per request is the measure, ` +
      'req/s shown for what it is worth on a shared machine. Figures are the means of the two comparisons; "change" is the ' +
      "geometric mean of the two comparisons' median ratios of the server with the modules to the one without (each " +
      "comparison's own CPU ratio in brackets: the port loaded second measures a few % more).",
    '',
    '| scenario | server | req/s | p99 ms | req/s change | CPU ms/request | CPU change (each order) | errors |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...scenarios.flatMap(({ name, rows, cpuChange, rpsChange, orders }) =>
      rows.map((r, i) =>
        [
          '',
          name,
          r.variant,
          r.rps,
          r.p99 === null ? '–' : Math.round(r.p99),
          i === 0 ? '–' : pct(rpsChange),
          r.cpuUs === null ? '–' : (r.cpuUs / 1000).toFixed(3),
          i === 0 || cpuChange === null
            ? '–'
            : `${pct(cpuChange)} (${orders.map((o) => (o === null ? '–' : pct(o))).join(', ')})`,
          r.errors,
          '',
        ]
          .join(' | ')
          .trim(),
      ),
    ),
  ];
}

/** The scenarios where the modules cost more CPU per request than EXTENSIONS_TARGET. */
export function missedExtensionTargets({ scenarios }) {
  return scenarios
    .filter(({ cpuChange }) => cpuChange !== null && !(cpuChange - 1 <= EXTENSIONS_TARGET))
    .map(
      ({ name, cpuChange }) =>
        `${name} with the extension modules at ${(cpuChange * 100).toFixed(1)} % of the CPU per request without (target ≤ ${(100 + EXTENSIONS_TARGET * 100).toFixed(0)} %)`,
    );
}
