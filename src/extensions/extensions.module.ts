import { Injectable, Logger, Module, type OnModuleDestroy } from '@nestjs/common';
import { DatabaseModule } from '../database/database.module.js';
import { ScheduledPublications, type WentLiveWindow } from '../database/scheduled-publications.js';
import { Writes } from '../database/writes.js';
import { WritesModule } from '../database/writes.module.js';
import type { LifecycleChange } from './contracts.js';
import { ExtensionRegistry } from './registry.js';
import { lifecycleOf } from './seams.js';
import { StoredValuesStore } from './stored-values.store.js';

/**
 * Tells the modules' lifecycle listeners what each committed write changed: the same changes the
 * webhooks' outbox sees, after the commit, outside the transaction; and the scheduled posts that
 * went live by the clock (ScheduledPublications.onWentLive, nothing written), as `went_live`.
 */
@Injectable()
class LifecycleBridge implements OnModuleDestroy {
  private readonly logger = new Logger('Extensions');
  private readonly unsubscribe: Array<() => void>;

  constructor(
    writes: Writes,
    private readonly publications: ScheduledPublications,
    private readonly registry: ExtensionRegistry,
  ) {
    this.unsubscribe = [
      writes.onCommitDetailed((entries) =>
        this.registry.lifecycle.length ? this.tell(lifecycleOf(entries)) : undefined,
      ),
      publications.onWentLive((_reason, window) => void this.wentLive(window)),
    ];
  }

  private async wentLive(window: WentLiveWindow): Promise<void> {
    if (!this.registry.lifecycle.length) return;
    try {
      const posts = await this.publications.wentLiveIn(window);
      if (posts.length) await this.tell(posts.map((p) => ({ ...p, action: 'went_live' })));
    } catch (error) {
      this.logger.warn(`could not read the posts gone live: ${(error as Error)?.message ?? error}`);
    }
  }

  private async tell(changes: readonly LifecycleChange[]): Promise<void> {
    if (!changes.length) return;
    for (const listener of this.registry.lifecycle) {
      try {
        await listener.onChanges(changes);
      } catch (error) {
        this.logger.error(`a lifecycle listener failed: ${(error as Error)?.message ?? error}`);
      }
    }
  }

  onModuleDestroy(): void {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
  }
}

/**
 * The extension surface's registry (docs/extending.md). Not global: the core modules that call
 * the extensions and the extension modules import it, so one registry serves the application.
 */
@Module({
  imports: [WritesModule, DatabaseModule],
  providers: [ExtensionRegistry, LifecycleBridge, StoredValuesStore],
  exports: [ExtensionRegistry],
})
export class ExtensionsModule {}
