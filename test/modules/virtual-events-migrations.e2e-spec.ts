import { DataSource } from 'typeorm';
import { loadConfig } from '../../src/config/config.js';
import { dataSourceOptions } from '../../src/database/data-source.js';
import { migrationLabel } from '../../src/database/migration-label.js';
import { VirtualEventsModule } from '../../src/modules/virtual-events/virtual-events.module.js';
import { resetDatabase } from '../helpers/database.js';
import { migrate } from '../helpers/programs.js';
import { sharedDatabaseUrl } from '../helpers/spawn.js';

/**
 * `npm run migration:run` builds the extension modules' tables as the application does with
 * MIGRATIONS_RUN=true, so that a server started with MIGRATIONS_RUN=false (a replica, or a
 * deployment that migrates first) finds them.
 */
describe('migration:run with the extension modules (e2e)', () => {
  let url: string;
  const env = () => ({ DATABASE_URL: url, MIGRATIONS_RUN: 'false' });
  const label = migrationLabel(VirtualEventsModule.migrations[0].name);

  /** Whether the database has the `virtual_events` table (a query on it succeeds). */
  const hasTable = async () => {
    const ds = new DataSource(dataSourceOptions({ ...loadConfig(env()), migrationsRun: false }));
    await ds.initialize();
    try {
      await ds.query('SELECT COUNT(*) AS n FROM virtual_events');
      return true;
    } catch {
      return false;
    } finally {
      await ds.destroy();
    }
  };

  beforeAll(async () => {
    url = sharedDatabaseUrl();
    await resetDatabase(url);
  });

  it('applies, checks and reverts the Virtual Events table with the core', async () => {
    expect(await hasTable()).toBe(false);
    const applied = await migrate('run', env());
    expect(applied.code).toBe(0);
    const lines = applied.stdout.trim().split('\n');
    expect(lines[0]).toBe('applied 1763800000000-initial-schema');
    expect(lines).toContain(`applied ${label}`);
    expect(await hasTable()).toBe(true);

    // The check knows the module's migration: nothing pending once run, pending once reverted.
    expect((await migrate('check', env())).code).toBe(0);
    // A revert takes the newest migration first, the core's and the module's in one order:
    // the core's later ones go before the module's.
    const reverted: string[] = [];
    while (reverted.length < 20 && !reverted.includes(`reverted ${label}`)) {
      reverted.push((await migrate('revert', env())).stdout.trim());
    }
    expect(reverted.at(-1)).toBe(`reverted ${label}`);
    expect(await hasTable()).toBe(false);
    const pending = await migrate('check', env());
    expect(pending.code).toBe(1);
    expect(pending.stdout).toContain(`pending ${label}`);
    const reapplied = (await migrate('run', env())).stdout.trim().split('\n');
    expect(reapplied).toEqual(
      reverted.map((line) => line.replace('reverted', 'applied')).toReversed(),
    );
    expect(await hasTable()).toBe(true);
  });
});
