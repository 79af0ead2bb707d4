import type { Type } from '@nestjs/common';
import type { MigrationInterface } from 'typeorm';
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
export const extensionMigrations = (modules: readonly ExtensionModule[]) =>
  modules.flatMap((m) => m.migrations ?? []);
