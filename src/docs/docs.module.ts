import { Module, type DynamicModule } from '@nestjs/common';
import { ExtensionsModule } from '../extensions/extensions.module.js';
import { DocController } from './doc.controller.js';
import { DocsService } from './docs.service.js';
import { INDEX_DEFAULTS, type IndexDefaults } from './index-defaults.js';
import { RootController } from './root.controller.js';
import { WpIndexController } from './wp-index.controller.js';

/**
 * The API's documents and indexes. What resources contribute (the defaults a route applies)
 * comes in through `register`, from the module that composes the application.
 */
@Module({})
export class DocsModule {
  static register(defaults: IndexDefaults): DynamicModule {
    return {
      module: DocsModule,
      imports: [ExtensionsModule],
      controllers: [RootController, DocController, WpIndexController],
      providers: [DocsService, { provide: INDEX_DEFAULTS, useValue: defaults }],
      exports: [DocsService],
    };
  }
}
