import type { Connection, RowDataPacket } from 'mysql2/promise';
import type { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config.js';
import { SharedGeneration } from '../../src/database/shared-generation.js';
import type { SideConnection } from '../../src/database/side-connection.js';
import { WriteVersion } from '../../src/cache/write-version.js';
import {
  connectTestDatabase,
  isMysql,
  resetMigratedDatabase,
  testDatabaseUrl,
} from '../helpers/database.js';

/** A process's SharedGeneration, and how many round trips its side connection made. */
function processOf(): {
  generation: SharedGeneration;
  versions: WriteVersion;
  trips: () => number;
} {
  const versions = new WriteVersion();
  const config = loadConfig({ DATABASE_URL: testDatabaseUrl() });
  const generation = new SharedGeneration(config, versions, {} as DataSource);
  const side = (generation as unknown as { side: SideConnection }).side;
  const get = side.get.bind(side);
  let trips = 0;
  side.get = async () => {
    const conn = await get();
    return new Proxy(conn, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver) as unknown;
        if (key !== 'query' || typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          trips++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  };
  generation.onApplicationBootstrap();
  return { generation, versions, trips: () => trips };
}

/**
 * The write generation on MySQL/MariaDB (database/shared-generation.ts): each write's increment
 * and its tags are stored in one exchange with the database (a write's answer waits for it), and
 * another process learns exactly those tags from the log.
 */
describe.runIf(isMysql())('write generation on MySQL/MariaDB (e2e)', () => {
  let db: Connection;
  const processes: SharedGeneration[] = [];

  beforeAll(async () => {
    await resetMigratedDatabase();
    db = await connectTestDatabase(testDatabaseUrl());
  });

  afterAll(async () => {
    for (const generation of processes) await generation.onApplicationShutdown();
    await db.end();
  });

  const stored = async () => {
    const [[row]] = await db.query<RowDataPacket[]>(
      'SELECT value FROM write_generation WHERE id = 1',
    );
    return Number(row.value);
  };

  it('stores an increment and its tags in one round trip; another process drops only those', async () => {
    const writer = processOf();
    const reader = processOf();
    processes.push(writer.generation, reader.generation);
    // Both have read where the generation stands.
    await reader.generation.sync(Date.now());
    await writer.generation.sync(Date.now());
    const before = await stored();
    const writerTrips = writer.trips();

    writer.versions.bump('write', ['event:7', 'events']);
    await writer.generation.flushed();

    expect(await stored()).toBe(before + 1);
    const [rows] = await db.query<RowDataPacket[]>(
      'SELECT generation, tags FROM write_changes WHERE generation > ?',
      [before],
    );
    expect(rows.map((r) => [Number(r.generation), r.tags])).toEqual([
      [before + 1, 'event:7,events'],
    ]);
    // The increment's four statements went as one batch.
    expect(writer.trips() - writerTrips).toBe(1);
    // The writer's own increment drops nothing more in the writer.
    expect(writer.generation.current).toBe(before + 1);

    const bumps: Array<string[] | undefined> = [];
    reader.versions.onBump((_origin, tags) => bumps.push(tags ? [...tags] : undefined));
    await reader.generation.sync(Date.now() + 1_000);
    expect(reader.generation.current).toBe(before + 1);
    expect(bumps).toEqual([['event:7', 'events']]);
  });

  it('leaves no transaction open when the batch fails midway', async () => {
    const writer = processOf();
    processes.push(writer.generation);
    await writer.generation.sync(Date.now());
    const before = await stored();
    // The log refuses the row: the INSERT fails after the UPDATE ran.
    await db.query('ALTER TABLE write_changes ADD COLUMN blocker INT NOT NULL');
    try {
      writer.versions.bump('write', ['event:8']);
      await writer.generation.flushed();
    } finally {
      await db.query('ALTER TABLE write_changes DROP COLUMN blocker');
    }
    // Neither the generation nor a log row: the UPDATE was rolled back with the failed INSERT.
    expect(await stored()).toBe(before);
    writer.versions.bump('write', ['event:9']);
    await writer.generation.flushed();
    expect(await stored()).toBe(before + 1);
    const [rows] = await db.query<RowDataPacket[]>(
      'SELECT tags FROM write_changes WHERE generation = ?',
      [before + 1],
    );
    expect(rows.map((r) => r.tags)).toEqual(['event:9']);
  });
});
