import { Global, Module } from '@nestjs/common';
import { DocController } from './doc.controller.js';
import { DocsService } from './docs.service.js';
import { RootController } from './root.controller.js';

@Global()
@Module({
  controllers: [RootController, DocController],
  providers: [DocsService],
  exports: [DocsService],
})
export class DocsModule {}
