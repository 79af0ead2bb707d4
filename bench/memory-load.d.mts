// Types of memory-load.mjs, for the test that imports it.
export declare function createMemoryEvents(
  origin: string,
  auth: string,
  count: number,
  clients?: number,
): Promise<string[]>;
export declare function memoryReadPaths(
  slugs: readonly string[],
  size: { pages: number; records: number },
): string[];
export declare function readMemoryPaths(
  origin: string,
  readers: number,
  pick: () => string | undefined,
): Promise<void>;
