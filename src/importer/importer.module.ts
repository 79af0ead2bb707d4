import { ExtensionsModule } from '../extensions/extensions.module.js';
import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module.js';
import { WritesModule } from '../database/writes.module.js';
import { EventsModule } from '../events/events.module.js';
import { MetricsModule } from '../metrics/metrics.module.js';
import { OrganizersModule } from '../organizers/organizers.module.js';
import { TermsModule } from '../terms/terms.module.js';
import { VenuesModule } from '../venues/venues.module.js';
import { IcsImporter } from './ics-importer.js';
import { ImportWriter } from './import-writer.js';
import { TecImporter } from './tec-importer.js';

/**
 * The importers (README "Importing a calendar"): they write through the resource services, as the API does. Used by
 * the command line only.
 */
@Module({
  imports: [
    ExtensionsModule,
    AuthModule,
    WritesModule,
    MetricsModule,
    EventsModule,
    VenuesModule,
    OrganizersModule,
    TermsModule,
  ],
  providers: [ImportWriter, TecImporter, IcsImporter],
  exports: [TecImporter, IcsImporter],
})
export class ImporterModule {}
