import { Controller, Inject, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import { ApiError } from '../common/errors/api-error.js';
import { NAMESPACE, namespaceOf, restBase, restRoot } from '../common/http/links.js';
import { languageOf } from '../common/i18n/language.js';
import { WithoutDatabase } from '../database/database-availability.js';
import { DocsService } from './docs.service.js';
import { INDEX_DEFAULTS, indexDefaultsAt, type IndexDefaults } from './index-defaults.js';
import { doc } from '../common/i18n/doc-key.js';
import { Endpoint } from './endpoint.js';

@ApiTags('index')
// Served from memory: answers during a database outage too.
@WithoutDatabase()
@Controller(NAMESPACE)
export class RootController {
  constructor(
    private readonly docs: DocsService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INDEX_DEFAULTS) private readonly defaults: IndexDefaults,
  ) {}

  /** The namespace index WordPress generates (BEHAVIOR §2). */
  @Endpoint('GET', undefined, {
    summary: doc('root.summary'),
    queries: [
      {
        name: 'namespace',
        required: false,
        description: doc('root.namespace'),
        schema: { type: 'string', default: NAMESPACE },
      },
      {
        name: 'context',
        required: false,
        description: doc('root.context'),
        schema: { type: 'string', default: 'view' },
      },
    ],
  })
  // Responses: src/docs/responses.ts.
  index(@Req() req: Request, @Query('namespace') namespace?: unknown) {
    // Under the alias the index is the plugin's (`tribe/events/v1`, CONTRACT §6).
    const served = namespaceOf(req);
    if (namespace !== undefined && namespace !== served) {
      throw new ApiError('rest_invalid_namespace', 404);
    }
    return {
      namespace: served,
      routes: this.docs.routes(
        languageOf(req),
        restBase(this.config, req),
        // BEHAVIOR §2: the defaults the routes apply to this very request (§5.2.3).
        indexDefaultsAt(this.defaults, this.config.siteTimezone, new Date()),
        served,
      ),
      _links: { up: [{ href: restRoot(this.config, req) }] },
    };
  }
}
