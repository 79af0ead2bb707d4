import 'reflect-metadata';
import { loadConfig } from '../config/config.js';
import { createDataSource } from './data-source.js';

/** `node dist/database/migrate.js run|revert|check` on the DATABASE_URL database. */
async function main(action: string | undefined): Promise<void> {
  const config = loadConfig(process.env);
  const ds = createDataSource({ ...config, migrationsRun: false });
  await ds.initialize();
  try {
    if (action === 'run') {
      const done = await ds.runMigrations({ transaction: 'each' });
      console.log(done.length ? done.map((m) => `applied ${m.name}`).join('\n') : 'up to date');
    } else if (action === 'revert') {
      await ds.undoLastMigration({ transaction: 'each' });
      console.log('reverted the last migration');
    } else if (action === 'check') {
      // Entities and migrations must describe the same schema.
      const pending = (await ds.driver.createSchemaBuilder().log()).upQueries;
      if (pending.length) {
        console.error(pending.map((q) => q.query).join(';\n'));
        process.exitCode = 1;
      } else console.log('schema matches the entities');
    } else {
      console.error('usage: migrate.js run|revert|check');
      process.exitCode = 2;
    }
  } finally {
    await ds.destroy();
  }
}

main(process.argv[2]).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
