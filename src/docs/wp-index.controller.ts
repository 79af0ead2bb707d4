import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { DateTime } from 'luxon';
import { I18nService } from 'nestjs-i18n';
import { APP_CONFIG, type AppConfig } from '../config/config.js';
import {
  NAMESPACE,
  PLUGIN_NAMESPACE,
  WP_REST_ROOT,
  type RestNamespace,
} from '../common/http/links.js';
import { WP_INDEX_PATH } from '../common/http/rest-root.js';
import { languageOf, type LangRequest } from '../common/i18n/language.js';
import { WithoutDatabase } from '../database/database-availability.js';
import { DocsService } from './docs.service.js';
import { INDEX_DEFAULTS, indexDefaultsAt, type IndexDefaults } from './index-defaults.js';

/**
 * WordPress's REST index at `/wp-json/` (BEHAVIOR §14): what a client that discovers the API
 * the WordPress way reads first. Outside BASE_PATH (configure-app.ts excludes it, as /health);
 * `{BASE_PATH}/` and `?rest_route=/` reach it through rest-root.ts. Not part of the namespace's
 * OpenAPI document, as WordPress's own index is not part of the plugin's.
 */
@ApiExcludeController()
// Served from memory: answers during a database outage too.
@WithoutDatabase()
@Controller(WP_INDEX_PATH)
export class WpIndexController {
  constructor(
    private readonly docs: DocsService,
    private readonly i18n: I18nService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(INDEX_DEFAULTS) private readonly routeDefaults: IndexDefaults,
  ) {}

  @Get()
  index(@Req() req: Request) {
    const lang = languageOf(req);
    const { siteUrl, siteTimezone } = this.config;
    const root = `${siteUrl}${WP_REST_ROOT}${(req as LangRequest).pathPrefix ?? ''}`;
    const namespaces: RestNamespace[] = this.config.pluginNamespaceAlias
      ? [PLUGIN_NAMESPACE, NAMESPACE]
      : [NAMESPACE];
    // The defaults the events list applies to this very request (BEHAVIOR §2, §5.2.3).
    const defaults = indexDefaultsAt(this.routeDefaults, siteTimezone, new Date());
    const routes: Record<string, unknown> = {
      '/': {
        namespace: '',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { context: { default: 'view', required: false } } }],
        _links: { self: [{ href: `${root}/` }] },
      },
    };
    for (const namespace of namespaces) {
      Object.assign(routes, this.docs.routes(lang, `${root}/${namespace}`, defaults, namespace));
    }
    const t = (key: string) => this.i18n.translate(key, { lang });
    return {
      name: t('doc.info.title'),
      description: t('doc.info.description'),
      url: siteUrl,
      home: siteUrl,
      gmt_offset: DateTime.now().setZone(siteTimezone).offset / 60,
      timezone_string: siteTimezone,
      page_for_posts: 0,
      page_on_front: 0,
      show_on_front: 'posts',
      namespaces,
      // Application passwords over HTTP Basic, as WordPress advertises them (CONTRACT §2); the
      // passwords come from the CLI, no authorization page is served.
      authentication: {
        'application-passwords': {
          endpoints: { authorization: `${siteUrl}/wp-admin/authorize-application.php` },
        },
      },
      routes,
      site_logo: 0,
      site_icon: 0,
      site_icon_url: '',
      _links: { help: [{ href: 'https://developer.wordpress.org/rest-api/' }] },
    };
  }
}
