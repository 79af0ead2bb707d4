// The targets `npm run bench` checks (no imports: unit-tested by test/bench.e2e-spec.ts).

/** The default events list, as served by default, against the framework ceiling. */
export const LIST_TARGET = 0.5;
/** A deep page's p99 against page 1's, served and computed. */
export const DEEP_TARGET = 1.5;

/**
 * The targets a run missed, one sentence each. The computed default list (response cache off)
 * has no target: it is reported for what it is, every request running the queries.
 */
export function missedTargets({ ceiling, list, page1, deep }) {
  const missed = [];
  const listRatio = list.rps / ceiling;
  if (!(listRatio >= LIST_TARGET)) {
    missed.push(`default list served at ${listRatio.toFixed(2)} of the ceiling (target ≥ ${LIST_TARGET.toFixed(2)})`);
  }
  for (const [kind, x] of [
    ['served', deep.p99 / page1.p99],
    ['computed', deep.uncached.p99 / page1.uncached.p99],
  ]) {
    if (!(x <= DEEP_TARGET)) {
      missed.push(`deep page p99 ${kind} at ${x.toFixed(2)}× page 1 (target ≤ ${DEEP_TARGET}×)`);
    }
  }
  return missed;
}
