import { Global, Module } from '@nestjs/common';
import { DocController } from './doc.controller.js';
import { DocsService } from './docs.service.js';
import { RootController } from './root.controller.js';
import { WpIndexController } from './wp-index.controller.js';

@Global()
@Module({
  controllers: [RootController, DocController, WpIndexController],
  providers: [DocsService],
  exports: [DocsService],
})
export class DocsModule {}
