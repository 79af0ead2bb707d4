import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
import { migrations as coreMigrations } from './database/migrations/index.js';
import { VirtualEventsModule } from './modules/virtual-events/virtual-events.module.js';

/** An extension module (docs/extending.md): a Nest module, with its tables' migrations. */
export interface ExtensionModule extends Type {
  readonly migrations?: ReadonlyArray<new () => MigrationInterface>;
}

/**
 * The extension modules the application loads, one line each (docs/extending.md). Removing a
 * module's line and its folder leaves a core that builds and passes its own tests.
 */
export const EXTENSION_MODULES: readonly ExtensionModule[] = [VirtualEventsModule];

/** The migrations of `modules`' tables, after the core's. */
const extensionMigrations = (modules: readonly ExtensionModule[]) =>
  modules.flatMap((m) => m.migrations ?? []);

/**
 * Every migration the application runs: the core's, then the loaded extension modules'. The
 * application (MIGRATIONS_RUN=true), the CLI and `npm run migration:run|revert|check` share it, so
 * a replica started with MIGRATIONS_RUN=false gets the modules' tables from migration:run too.
 */
export const applicationMigrations = (modules: readonly ExtensionModule[] = EXTENSION_MODULES) => [
  ...coreMigrations,
  ...extensionMigrations(modules),
];
