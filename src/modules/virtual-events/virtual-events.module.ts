import { Injectable, Module } from '@nestjs/common';
import {
  ExtensionRegistry,
  ExtensionsModule,
  type LifecycleChange,
} from '../../extensions/index.js';
import { VIRTUAL_EVENTS_CATALOGUE } from './messages.js';
import { VirtualEvents1766100000000 } from './migrations/1766100000000-virtual-events.js';
import { VirtualEventsStore } from './virtual-events.store.js';
import { virtualPayload } from './virtual-fields.js';
import { virtualFilter } from './virtual-filter.js';
import { virtualWrites } from './virtual-writes.js';

/** Registers the module's parts on the surface (docs/extending.md). */
@Injectable()
class VirtualEventsRegistration {
  constructor(registry: ExtensionRegistry, store: VirtualEventsStore) {
    registry.register({
      name: 'virtual_events',
      catalogue: VIRTUAL_EVENTS_CATALOGUE,
      payload: [virtualPayload()],
      listParameters: [virtualFilter],
      writes: [virtualWrites(store)],
      lifecycle: [
        {
          // A deleted event's row goes with it.
          onChanges: (changes: readonly LifecycleChange[]) =>
            store.clear(
              undefined,
              changes.filter((c) => c.kind === 'event' && c.action === 'deleted').map((c) => c.id),
            ),
        },
      ],
    });
  }
}

/**
 * Virtual Events (issue 49): `is_virtual`, `virtual_url` and `virtual_video_source` on every
 * event, in both namespaces; writes of them; `virtual=true|false` on the events list; the
 * online attendance in JSON-LD. Built on src/extensions/index.ts alone; registered by its line
 * in src/extension-modules.ts.
 */
@Module({
  imports: [ExtensionsModule],
  providers: [VirtualEventsStore, VirtualEventsRegistration],
})
export class VirtualEventsModule {
  /** Its tables' migrations, run with the application's (both engines). */
  static readonly migrations = [VirtualEvents1766100000000];
}
