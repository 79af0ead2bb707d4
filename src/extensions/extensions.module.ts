import { Injectable, Logger, Module, type OnModuleDestroy } from '@nestjs/common';
import { Writes } from '../database/writes.js';
import { WritesModule } from '../database/writes.module.js';
import { ExtensionRegistry } from './registry.js';
import { lifecycleOf } from './seams.js';

/**
 * Tells the modules' lifecycle listeners what each committed write changed: the same changes the
 * webhooks' outbox sees, after the commit, outside the transaction.
 */
@Injectable()
class LifecycleBridge implements OnModuleDestroy {
  private readonly logger = new Logger('Extensions');
  private readonly unsubscribe: () => void;

  constructor(writes: Writes, registry: ExtensionRegistry) {
    this.unsubscribe = writes.onCommitDetailed(async (entries) => {
      if (!registry.lifecycle.length) return;
      const changes = lifecycleOf(entries);
      for (const listener of registry.lifecycle) {
        try {
          await listener.onChanges(changes);
        } catch (error) {
          this.logger.error(`a lifecycle listener failed: ${(error as Error)?.message ?? error}`);
        }
      }
    });
  }

  onModuleDestroy(): void {
    this.unsubscribe();
  }
}

/**
 * The extension surface's registry (docs/extending.md). Not global: the core modules that call
 * the extensions and the extension modules import it, so one registry serves the application.
 */
@Module({
  imports: [WritesModule],
  providers: [ExtensionRegistry, LifecycleBridge],
  exports: [ExtensionRegistry],
})
export class ExtensionsModule {}
