import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';
import { I18nService } from 'nestjs-i18n';
import { answerClientErrors, type QueryParser } from './common/http/client-error.js';
import { rejectDeepJson } from './common/http/json-depth.js';
import { answerUnrouted, type Handle } from './common/errors/unrouted.js';
import { cachePolicy } from './common/http/conditional.js';
import { calendarNegotiation } from './feeds/negotiation.js';
import { PUBLIC_ROUTES } from './public/public.module.js';
import { embedFraming } from './public/calendar/embed-framing.js';
import { CONSOLE_ROUTES } from './console/console.controller.js';
import { SESSION_ROUTE } from './console/session.controller.js';
import type { Logger } from 'pino';
import { createLogger, requestLogger, type LogSink } from './common/http/request-logger.js';
import { languageOf, languagePrefix } from './common/i18n/language.js';
import { NAMESPACE, namespaceOf, restBase } from './common/http/links.js';
import { WP_INDEX_PATH, wordpressRestRoot } from './common/http/rest-root.js';
import { APP_CONFIG, type AppConfig } from './config/config.js';
import { DocsService } from './docs/docs.service.js';
import { INDEX_DEFAULTS, type IndexDefaults } from './docs/index-defaults.js';
import { routeOptions } from './docs/route-options.js';
import { envelope, methodOverride, queryUnderBody } from './common/http/wp-conventions.js';
import { doc } from './common/i18n/doc-key.js';
import { httpMetrics } from './metrics/http-metrics.js';
import { Metrics } from './metrics/metrics.js';
import { httpTracing } from './tracing/http-tracing.js';
import { tracingEnabled } from './tracing/spans.js';

/** Everything that needs the app object; shared by main.ts and the e2e tests. */
export function configureApp(
  app: NestExpressApplication,
  options: { logger?: Logger; logSink?: LogSink } = {},
): AppConfig {
  const config = app.get<AppConfig>(APP_CONFIG);
  installFirstMiddleware(app, config, options);
  installRequestConventions(app, config);
  setUpApiDocuments(app, config);
  return config;
}

/** What reads, counts, traces, refuses and logs a request before anything else sees it. */
function installFirstMiddleware(
  app: NestExpressApplication,
  config: AppConfig,
  options: { logger?: Logger; logSink?: LogSink },
): void {
  // First of all the language prefix is read (and taken off the URL), so that whatever refuses
  // a request after it answers in its language: the body parsers (malformed JSON, 413, 415), a
  // malformed URI, any middleware (found by test/fuzz.e2e-spec.ts).
  app.use(languagePrefix(config.defaultLanguage, config.basePath));
  // Every request is counted, also those refused before routing.
  const metrics = app.get(Metrics);
  if (metrics.enabled) app.use(httpMetrics(metrics, config.basePath));
  // Then its span (OTEL_* set), so that the request's log lines carry its trace id.
  if (tracingEnabled()) app.use(httpTracing(config.basePath));
  // Express `trust proxy` (TRUST_PROXY): req.ip, and so the login throttle's client address, comes
  // from X-Forwarded-For only for requests that arrive through a trusted proxy.
  app.set('trust proxy', config.trustProxy);
  // Requests Node's HTTP parser refuses (431, 400, 408) are answered in the error shape too.
  const express = app.getHttpAdapter().getInstance() as {
    get(setting: string): QueryParser | undefined;
  };
  answerClientErrors(app.getHttpServer(), app.get(I18nService), config, () =>
    express.get('query parser fn'),
  );
  // No Express HTML page for what no route answers (outside BASE_PATH too).
  answerUnrouted(
    app.getHttpAdapter().getInstance() as unknown as { handle: Handle },
    app.get(I18nService),
  );
  // The request id and the request's logger always; the request lines when LOG_REQUESTS is on.
  const logger = options.logger ?? createLogger(options.logSink);
  app.use(requestLogger(logger, config.logRequests));
  app.use(
    helmet({
      // Swagger UI needs its inline styles and data: images; plain-http deployments must not be
      // upgraded to https behind the user's back.
      contentSecurityPolicy: {
        directives: {
          'style-src': ["'self'", "'unsafe-inline'"],
          'img-src': ["'self'", 'data:', 'https:'],
          'upgrade-insecure-requests': null,
        },
      },
      // The API is meant to be read by other origins (CORS decides who).
      crossOriginResourcePolicy: { policy: 'cross-origin' },
    }),
  );
  // The calendar's embeds may be framed by EMBED_ORIGINS.
  app.use(embedFraming(config));
}

/** WordPress's ways in and conventions, bodies, caching, CORS, OPTIONS and the base path. */
function installRequestConventions(app: NestExpressApplication, config: AppConfig): void {
  // WordPress's ways in: /wp-json/, the plugin's namespace, ?rest_route=, the discovery header.
  app.use(wordpressRestRoot(config));
  // WordPress's REST conventions (wp-conventions.ts): `_envelope` wraps whatever answers from
  // here on, body parsers' refusals included; a POST's method override is in place before
  // anything routes, guards or logs the request.
  app.use(envelope);
  app.use(methodOverride);
  // Bodies above 1 MB answer 413 in the WordPress shape (WpErrorFilter).
  app.useBodyParser('json', { limit: '1mb' });
  app.useBodyParser('urlencoded', { limit: '1mb', extended: true });
  app.use(rejectDeepJson);
  app.use(jsonContentType);
  // Write parameters from the query string, under the body's (JSON or form wins).
  app.use(queryUnderBody);
  // Express 5 no longer parses `categories[]=1&categories[]=2` by default.
  app.set('query parser', 'extended');
  app.disable('x-powered-by');
  // Strong ETags on every body Express sends, and 304 to a fresh If-None-Match/If-Modified-Since
  // (conditional.ts); Express's default is weak.
  app.set('etag', 'strong');
  app.use(cachePolicy);
  app.use(calendarNegotiation);
  app.enableCors({
    origin: config.corsOrigins === '*' ? '*' : config.corsOrigins,
    credentials: config.corsOrigins !== '*',
    methods: ['OPTIONS', 'GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // `Link`: WordPress's REST discovery header (rest-root.ts), as WordPress exposes it.
    exposedHeaders: ['X-TEC-Total', 'X-TEC-TotalPages', 'Link'],
    // OPTIONS goes on to routeOptions: a preflight's empty 204 there, a route's description else.
    preflightContinue: true,
  });
  app.use(routeOptions(app.get(DocsService), config, app.get<IndexDefaults>(INDEX_DEFAULTS)));
  if (config.basePath) {
    app.setGlobalPrefix(config.basePath, {
      exclude: [
        'health',
        'health/live',
        'health/ready',
        WP_INDEX_PATH,
        ...PUBLIC_ROUTES,
        ...CONSOLE_ROUTES,
        SESSION_ROUTE,
      ],
    });
  }
}

/** The OpenAPI document and one Swagger UI per language. */
function setUpApiDocuments(app: NestExpressApplication, config: AppConfig): void {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setOpenAPIVersion('3.0.0')
      .setTitle(doc('info.title'))
      .setDescription(doc('info.description'))
      .setVersion('1.0.0')
      .addBasicAuth({ type: 'http', scheme: 'basic', description: doc('info.auth') }, 'basic')
      .build(),
    { ignoreGlobalPrefix: true },
  );
  const docs = app.get(DocsService);
  docs.setDocument(document);
  app.use(swaggerPageLanguage);
  // One Swagger UI per language (/hu/cal/events/v1/doc/ui, ...), assets from swagger-ui-dist.
  // Swagger routes bypass Nest middleware, so the hook picks the language itself.
  SwaggerModule.setup(`${NAMESPACE}/doc/ui`, app, document, {
    useGlobalPrefix: true,
    raw: false,
    customSiteTitle: 'cal/events/v1',
    swaggerOptions: { persistAuthorization: true, tryItOutEnabled: true },
    patchDocumentOnRequest: (req) => {
      const r = req as Request;
      return docs.forRequest(languageOf(r), restBase(config, r), r.secure, namespaceOf(r));
    },
  });
}

/** WordPress answers every REST response, errors included, as `application/json; charset=UTF-8`. */
function jsonContentType(req: Request, res: Response, next: NextFunction) {
  if (req.path.includes('/doc/ui')) return next();
  // Express's send() lower-cases the charset it appends; keep WordPress's spelling.
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name: string, value: number | string | readonly string[]) =>
    setHeader(
      name,
      name.toLowerCase() === 'content-type' && typeof value === 'string'
        ? value.replace(/^application\/json; charset=utf-8$/i, 'application/json; charset=UTF-8')
        : value,
    );
  next();
}

/**
 * The Swagger UI page is one HTML template for every language, declared `lang="en"`: give each
 * page the language it is shown in, for screen readers, hyphenation and translation prompts.
 */
function swaggerPageLanguage(req: Request, res: Response, next: NextFunction) {
  if (req.method !== 'GET' || !/\/doc\/ui(\/|\/index\.html)?$/.test(req.path)) return next();
  const send = res.send.bind(res);
  res.send = (body?: unknown) =>
    send(
      typeof body === 'string'
        ? body
            .replace('<html lang="en">', `<html lang="${languageOf(req)}">`)
            .replace(`<title>${NAMESPACE}</title>`, `<title>${namespaceOf(req)}</title>`)
        : body,
    );
  next();
}
