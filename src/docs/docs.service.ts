import { Inject, Injectable } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { I18nService } from 'nestjs-i18n';
import { type Language } from '../config/config.js';
import { NAMESPACE, PLUGIN_NAMESPACE, type RestNamespace } from '../common/http/links.js';
import { translateDocument } from './translate-document.js';
import { asDeclared, type EndpointArg } from './index-args.js';
import { isServiceOnlyPath, ROUTE_TABLE } from './route-table.js';
import type { Schema } from './schema.js';
import { buildTecDocument, documentPath, type Operation } from './tec-document.js';
import { ExtensionRegistry } from '../extensions/registry.js';
import { addExtensionDocumentation, withoutOwnNamespaceFields } from './extension-document.js';

/**
 * WordPress's own index route declares `namespace` and `context` without descriptions (BEHAVIOR
 * §2); the OpenAPI document describes them, the index shows them as WordPress does.
 */
const INDEX_ARGS_WITHOUT_DESCRIPTION = new Set(['namespace', 'context']);

/**
 * The OpenAPI document, built once from the controllers' decorators (before app.init), shaped
 * like the plugin's (tec-document.ts) and translated once per language at start-up; `/doc`, the
 * Swagger UI pages and the namespace index (its `args`) are served from these documents.
 */
@Injectable()
export class DocsService {
  private base: OpenAPIObject | undefined;
  private readonly translated = new Map<Language, OpenAPIObject>();
  /** The same documents describing the plugin's namespace (the alias, CONTRACT §6). */
  private readonly plugin = new Map<Language, OpenAPIObject>();

  constructor(
    @Inject(I18nService) private readonly i18n: I18nService,
    private readonly extensions: ExtensionRegistry,
  ) {}

  /**
   * Takes Nest's raw document (not modified) and shapes it; each language's documents are made
   * when first asked for (`get`): held for all six (three languages, two namespaces) from the
   * start they took 2.7 MB of every process's heap, most of them never read.
   */
  setDocument(raw: OpenAPIObject): void {
    this.base = buildTecDocument(raw);
    // The modules' fields and parameters, described in their own catalogues.
    addExtensionDocumentation(this.base, this.extensions);
    this.translated.clear();
    this.plugin.clear();
  }

  /** The document of `lang` in our namespace, translated when first asked for. */
  private own(lang: Language): OpenAPIObject {
    let translated = this.translated.get(lang);
    if (!translated) {
      translated = translateDocument(
        this.source(),
        (key) => this.extensions.text(lang, key) ?? this.i18n.translate(key, { lang }),
      );
      this.translated.set(lang, translated);
    }
    return translated;
  }

  /** The document before translation: descriptions are still i18n keys. */
  source(): OpenAPIObject {
    if (!this.base) throw new Error('DocsService used before setDocument()');
    return this.base;
  }

  get(lang: Language, namespace: RestNamespace = NAMESPACE): OpenAPIObject {
    if (namespace !== PLUGIN_NAMESPACE) return this.own(lang);
    let plugin = this.plugin.get(lang);
    if (!plugin) {
      plugin = underPluginNamespace(this.own(lang));
      withoutOwnNamespaceFields(plugin, this.extensions);
      this.plugin.set(lang, plugin);
    }
    return plugin;
  }

  /** The document for one request: its language, and `servers` pointing at its REST base. */
  forRequest(
    lang: Language,
    restBase: string,
    secure: boolean,
    namespace: RestNamespace = NAMESPACE,
  ): OpenAPIObject {
    const base = new URL(restBase);
    // Scheme of the current request, host (and port) of SITE_URL (BEHAVIOR §3, D19).
    if (secure) base.protocol = 'https:';
    return { ...this.get(lang, namespace), servers: [{ url: `${base.toString()}/` }] };
  }

  /**
   * `routes` of the namespace index (BEHAVIOR §2) for the routes this build serves. `defaults`
   * holds the defaults computed for the request, by `METHOD path` and argument name.
   */
  routes(
    lang: Language,
    base: string,
    defaults: Record<string, Record<string, unknown>> = {},
    namespace: RestNamespace = NAMESPACE,
  ): Record<string, unknown> {
    const document = this.get(lang, namespace);
    const routes: Record<string, unknown> = {};
    for (const row of ROUTE_TABLE) {
      const item = document.paths[documentPath(row.path)] as Record<string, Operation> | undefined;
      const served = row.groups.filter((g) => item?.[g[0].toLowerCase()]);
      if (!served.length) continue;
      const route: Record<string, unknown> = {
        namespace,
        methods: served.flat(),
        endpoints: served.map((methods) => {
          const key = `${methods[0]} ${row.path}`;
          const args = argsOf(item![methods[0].toLowerCase()], document, row.path === '');
          for (const [name, arg] of Object.entries(args)) {
            const computed = defaults[key]?.[name];
            args[name] = asDeclared(methods[0], row.path, name, {
              ...(computed !== undefined && { default: computed }),
              ...arg,
            });
          }
          return { methods, args };
        }),
      };
      if (!row.pattern.includes('(?P<'))
        route._links = { self: [{ href: `${base}${row.pattern}` }] };
      routes[`/${namespace}${row.pattern}`] = route;
    }
    return routes;
  }
}

/**
 * A document that names the plugin's namespace wherever ours names `cal/events/v1` (summaries,
 * descriptions, the index's `namespace` default). Paths are relative to `servers`, so they stay.
 */
function underPluginNamespace(document: OpenAPIObject): OpenAPIObject {
  const paths = Object.fromEntries(
    Object.entries(document.paths).filter(([path]) => !isServiceOnlyPath(path)),
  );
  const tags = document.tags?.filter((tag) => tag.name !== 'webhooks' && tag.name !== 'users');
  const plugin = JSON.parse(
    JSON.stringify({ ...document, paths, tags }).replaceAll(NAMESPACE, PLUGIN_NAMESPACE),
  ) as OpenAPIObject;
  // The plugin's payload has no recurrence field (BEHAVIOR §15).
  const event = plugin.components?.schemas?.Event as
    { properties?: Record<string, unknown> } | undefined;
  if (event?.properties) {
    delete event.properties.recurrence;
    delete event.properties.occurrences_remaining;
  }
  return plugin;
}

function resolveRef(schema: Schema | undefined, document: OpenAPIObject): Schema | undefined {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return document.components?.schemas?.[name] as Schema | undefined;
}

function argOf(schema: Schema, description: unknown, required: boolean): EndpointArg {
  const arg: EndpointArg = { required };
  for (const key of ['default', 'description', 'type', 'format', 'items', 'enum'] as const) {
    const value = key === 'description' ? description : schema[key];
    if (value !== undefined) (arg as unknown as Record<string, unknown>)[key] = value;
  }
  // `required` comes last, as WordPress prints it.
  const { required: r, ...rest } = arg;
  return { ...rest, required: r };
}

function argsOf(
  op: Operation,
  document: OpenAPIObject,
  isIndex = false,
): Record<string, EndpointArg> {
  const args: Record<string, EndpointArg> = {};
  for (const p of op.parameters ?? []) {
    const described = !(isIndex && INDEX_ARGS_WITHOUT_DESCRIPTION.has(p.name));
    args[p.name] = argOf(p.schema ?? {}, described ? p.description : undefined, !!p.required);
  }
  const body = resolveRef(op.requestBody?.content?.['application/json']?.schema, document);
  const required = new Set((body?.required as string[] | undefined) ?? []);
  for (const [name, prop] of Object.entries((body?.properties ?? {}) as Record<string, Schema>)) {
    if (name in args) continue;
    args[name] = argOf(prop, prop.description, required.has(name));
  }
  const { i18n_language, ...rest } = args;
  return i18n_language ? { ...rest, i18n_language } : rest;
}
