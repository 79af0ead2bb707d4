import { Controller, Inject, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { NAMESPACE, namespaceOf, restBase } from '../common/http/links.js';
import { languageOf } from '../common/i18n/language.js';
import { WithoutDatabase } from '../database/database-availability.js';
import { DocsService } from './docs.service.js';
import { doc } from '../common/i18n/doc-key.js';
import { Endpoint } from './endpoint.js';

@ApiTags('doc')
// Served from memory: answers during a database outage too.
@WithoutDatabase()
@Controller(NAMESPACE)
export class DocController {
  constructor(
    private readonly docs: DocsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Endpoint('GET', 'doc', { summary: doc('doc.summary') })
  // Responses: src/docs/responses.ts.
  document(@Req() req: Request) {
    return this.docs.forRequest(
      languageOf(req),
      restBase(this.config, req),
      req.secure,
      namespaceOf(req),
    );
  }
}
