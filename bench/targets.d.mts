// Types of targets.mjs, for the tests that import it.
export interface Measured {
  rps: number;
  p99: number;
}
export declare const LIST_TARGET: number;
export declare const DEEP_TARGET: number;
export declare const COMPUTED_TARGETS: {
  list: { ratio: number; p99: number };
  record: { ratio: number };
  create: { rps: number; p99: number };
  rssMb: number;
};
export declare function missedTargets(run: {
  ceiling: number;
  list: Measured;
  page1: Measured & { uncached?: { p99: number } };
  deep: Measured & { uncached?: { p99: number } };
}): string[];
export declare function missedComputedTargets(run: {
  ceiling: number;
  rows: Array<{ name: string; target?: string; computed: Measured }>;
  create: Measured;
  rssMb: number;
}): string[];
export declare const OVERHEAD_TARGET: number;
export declare function missedOverheadTargets(comparison: {
  results: Record<string, Array<{ variant: string; ratio: number }>>;
}): string[];
export declare const REFERENCE_RUN: string;
export declare function targetsApply(run: { scale: number; sqlite: boolean }): boolean;
export declare function targetReport(run: { scale: number; sqlite: boolean; missed: string[] }): {
  lines: string[];
  failed: boolean;
};
