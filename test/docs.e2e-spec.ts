import type { NestExpressApplication } from '@nestjs/platform-express';
import { I18nService } from 'nestjs-i18n';
import request from 'supertest';
import { DocsService } from '../src/docs/docs.service.js';
import { DOC_KEY } from '../src/common/i18n/doc-key.js';
import { closeApp, createTestApp } from './helpers/create-test-app.js';
import { summarySlips } from './helpers/glossary-slips.js';

type Json = Record<string, unknown>;
type Operation = {
  operationId: string;
  parameters: Array<Json & { name: string; in: string; schema: Json; description: string }>;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Json & { description: string; content?: Json }>;
  security: unknown[];
};
type Document = Json & {
  info: { version: string; title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json & { properties?: Record<string, Json> }> };
};

const LANGS = ['en', 'hu', 'ro'] as const;
const TEXT_KEYS = new Set(['description', 'summary', 'title']);
/** Texts that are the same in every language on purpose: the product name. */
const SAME_EVERYWHERE = new Set(['The Events Calendar REST API']);
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
/** Fields the plugin declares without a type: they accept any JSON type (BEHAVIOR §1.3). */
const UNTYPED = new Set([
  'cost',
  'website',
  'categories',
  'tags',
  'venue',
  'organizer',
  'has_events',
  'only_with_upcoming',
]);

/** Every description/summary/title with its JSON path. */
function texts(node: unknown, path = '', out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(node)) node.forEach((item, i) => texts(item, `${path}[${i}]`, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key}`;
      if (TEXT_KEYS.has(key) && typeof value === 'string') out.set(at, value);
      else texts(value, at, out);
    }
  }
  return out;
}

/** The document without its human-readable texts (only string-valued text keys are texts). */
function withoutTexts(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutTexts);
  if (node && typeof node === 'object') {
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key, value]) => !(TEXT_KEYS.has(key) && typeof value === 'string'))
        .map(([key, value]) => [key, withoutTexts(value)]),
    );
  }
  return node;
}

function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refs(item, out));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') out.push(value);
      else refs(value, out);
    }
  }
  return out;
}

function operations(document: Document): Array<[string, string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => [path, method, op] as [string, string, Operation]),
  );
}

describe('API documentation (e2e)', () => {
  let app: NestExpressApplication;
  const docs = {} as Record<(typeof LANGS)[number], Document>;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    app = await createTestApp();
    for (const lang of LANGS) {
      const res = await http().get(`/${lang}/cal/events/v1/doc`).expect(200);
      docs[lang] = res.body as Document;
    }
  });
  afterAll(() => closeApp(app));

  describe('GET /doc', () => {
    it('answers the default language without a prefix, and i18n_language wins', async () => {
      const plain = await http().get('/cal/events/v1/doc').expect(200);
      expect(plain.headers['content-type']).toBe('application/json; charset=UTF-8');
      expect(plain.body.info).toEqual(docs.en.info);
      expect(plain.body.servers).toEqual([{ url: 'http://cal.test/cal/events/v1/' }]);
      const ro = await http().get('/hu/cal/events/v1/doc?i18n_language=ro').expect(200);
      expect(withoutServers(ro.body)).toEqual(withoutServers(docs.ro));
      expect(docs.hu.servers).toEqual([{ url: 'http://cal.test/hu/cal/events/v1/' }]);
    });

    it('names every operation with an action in hu and ro, as served', () => {
      // The summaries the reader sees, whichever catalogue key they come from: a verbal noun in
      // Hungarian (Események listázása), a verb in Romanian (Listează evenimentele).
      for (const lang of ['hu', 'ro'] as const) {
        const served = operations(docs[lang]).map(([path, method, op]) => ({
          route: `${method.toUpperCase()} ${path}`,
          summary: (op as Operation & { summary?: string }).summary ?? '',
        }));
        expect(served.length).toBeGreaterThan(20);
        expect(served.filter((o) => !o.summary)).toEqual([]);
        // summarySlips reads catalogue keys: each operation stands as an `.op.` key.
        const summaries = new Map(served.map((o, i) => [`doc.op.n${i}`, o.summary]));
        const slips = summarySlips(lang, summaries).map(
          (f) => `${lang} ${served[Number(f.key.slice(8))].route}: ${f.text}`,
        );
        expect(slips).toEqual([]);
      }
    });

    it('rejects an unsupported language', async () => {
      const res = await http().get('/cal/events/v1/doc?i18n_language=de').expect(400);
      expect(res.body.code).toBe('rest_invalid_param');
    });

    it('keeps the plugin top-level order, schema order and path order (BEHAVIOR §3)', () => {
      const en = docs.en;
      expect(Object.keys(en).slice(0, 5)).toEqual([
        'openapi',
        'info',
        'components',
        'servers',
        'paths',
      ]);
      expect(en.openapi).toBe('3.0.0');
      expect(en.info).toEqual({
        version: '1.0.0',
        title: 'The Events Calendar REST API',
        description:
          'The Events Calendar REST API allows accessing upcoming events information easily and conveniently.',
      });
      expect(Object.keys(en.components.schemas).slice(0, 8)).toEqual([
        'ImageSize',
        'CostDetails',
        'Term',
        'Image',
        'DateDetails',
        'Event',
        'Venue',
        'Organizer',
      ]);
      expect(Object.keys(en.components.schemas)).toEqual(
        expect.arrayContaining(['EventsArchive', 'CategoriesArchive', 'Error', 'NamespaceIndex']),
      );
      expect(Object.keys(en.paths).slice(0, 14)).toEqual([
        '/doc',
        '/events',
        '/events/{id}',
        '/events/by-slug/{slug}',
        '/venues',
        '/venues/{id}',
        '/venues/by-slug/{slug}',
        '/organizers',
        '/organizers/{id}',
        '/organizers/by-slug/{slug}',
        '/categories',
        '/categories/{id}',
        '/tags',
        '/tags/{id}',
      ]);
      expect(Object.keys(en.paths['/events/{id}'])).toEqual([
        'get',
        'delete',
        'post',
        'put',
        'patch',
      ]);
      expect(Object.keys(en.paths['/tags/{id}'])).toEqual([
        'get',
        'post',
        'put',
        'patch',
        'delete',
      ]);
    });

    it('documents HTTP Basic with application passwords, required on writes only', () => {
      const { securitySchemes } = docs.en.components as unknown as {
        securitySchemes: Record<string, Json>;
      };
      expect(securitySchemes.basic).toMatchObject({ type: 'http', scheme: 'basic' });
      expect(securitySchemes.basic.description).toMatch(/application password/);
      for (const [, method, op] of operations(docs.en)) {
        expect(op.security).toEqual(method === 'get' ? [{}, { basic: [] }] : [{ basic: [] }]);
      }
    });
  });

  describe('contents', () => {
    it('lists exactly the routes and methods the app serves', () => {
      const router = (
        app.getHttpAdapter().getInstance() as {
          router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
        }
      ).router;
      const served = new Set<string>();
      for (const layer of router.stack) {
        const route = layer.route;
        if (!route || !route.path.startsWith('/cal/events/v1')) continue;
        if (route.path.startsWith('/cal/events/v1/doc/ui')) continue; // the Swagger UI pages
        const path = route.path.slice('/cal/events/v1'.length).replace(/:(\w+)/g, '{$1}') || '/';
        for (const method of Object.keys(route.methods)) {
          if (METHODS.includes(method)) served.add(`${method.toUpperCase()} ${path}`);
        }
      }
      const documented = operations(docs.en).map(([p, m]) => `${m.toUpperCase()} ${p}`);
      expect(new Set(documented).size).toBe(documented.length);
      expect([...documented].sort()).toEqual([...served].sort());
      // The interface document's routes are all there (INTERFACE §4).
      expect(documented).toEqual(
        expect.arrayContaining([
          'GET /',
          'GET /doc',
          'POST /events',
          'PATCH /events/by-slug/{slug}',
          'PUT /venues/{id}',
          'DELETE /organizers/by-slug/{slug}',
          'PATCH /categories/{id}',
          'POST /tags',
        ]),
      );
    });

    /** Webhook actions that take no parameters beyond the path (CONTRACT "Webhooks"). */
    const BODYLESS_ACTIONS = new Set([
      'POST /webhooks/{id}/rotate-secret',
      'POST /webhooks/{id}/deliveries/{delivery}/replay',
    ]);

    it('describes every parameter and body field with a type', () => {
      const problems: string[] = [];
      for (const [path, method, op] of operations(docs.en)) {
        const at = `${method.toUpperCase()} ${path}`;
        for (const p of op.parameters) {
          if (!p.description || p.description === 'No description provided')
            problems.push(`${at} ${p.name}: no description`);
          if (!p.schema?.type && !UNTYPED.has(p.name)) problems.push(`${at} ${p.name}: no type`);
          if (p.in === 'path' && p.required !== true) problems.push(`${at} ${p.name}: optional`);
        }
        expect(op.parameters.map((p) => p.name)).toContain('i18n_language');
        const body = op.requestBody?.content['application/json']?.schema;
        if (['post', 'put', 'patch'].includes(method) && !BODYLESS_ACTIONS.has(at)) {
          expect(body).toEqual({ $ref: expect.stringMatching(/^#\/components\/schemas\//) });
          expect(op.requestBody!.content['application/x-www-form-urlencoded'].schema).toEqual(body);
        }
      }
      for (const [name, schema] of Object.entries(docs.en.components.schemas)) {
        for (const [field, prop] of Object.entries(schema.properties ?? {})) {
          if (!prop.description || prop.description === 'No description provided')
            problems.push(`${name}.${field}: no description`);
          if (!prop.type && !prop.$ref && !UNTYPED.has(field))
            problems.push(`${name}.${field}: no type`);
        }
      }
      expect(problems).toEqual([]);
    });

    it('documents every response with a description and its schema', () => {
      for (const [path, method, op] of operations(docs.en)) {
        for (const [status, response] of Object.entries(op.responses)) {
          const at = `${method} ${path} ${status}`;
          expect([at, typeof response.description]).toEqual([at, 'string']);
          expect([at, response.description.length > 0]).toEqual([at, true]);
          const content = response.content as Record<string, { schema: Json }> | undefined;
          // The iCalendar feeds (src/feeds) answer text/calendar.
          const schema = (content?.['application/json'] ?? content?.['text/calendar'])?.schema;
          expect([at, !!schema]).toEqual([at, true]);
          if (Number(status) >= 400) expect(schema).toEqual({ $ref: '#/components/schemas/Error' });
        }
      }
      const list = docs.en.paths['/events'].get.responses['200'];
      expect(list.content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/EventsArchive' } },
      });
      expect(Object.keys(list.headers as Json)).toEqual(['X-TEC-Total', 'X-TEC-TotalPages']);
      expect(docs.en.paths['/venues/{id}'].get.responses['200'].content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Venue' } },
      });
      expect(docs.en.paths['/tags/{id}'].delete.responses['200'].content).toEqual({
        'application/json': { schema: { $ref: '#/components/schemas/Term' } },
      });
    });

    it('resolves every $ref', () => {
      const schemas = docs.en.components.schemas;
      const broken = refs(docs.en).filter(
        (ref) => !(ref.replace('#/components/schemas/', '') in schemas),
      );
      expect(broken).toEqual([]);
    });

    it('uses the plugin texts for responses (BEHAVIOR §3)', () => {
      const { paths } = docs.en;
      // `method path status`: the plugin's text.
      const pluginTexts: Record<string, string> = {
        'get /doc 200':
          'Returns the documentation for The Events Calendar REST API in Swagger consumable format.',
        'get /events 200': 'Returns all the upcoming events matching the search criteria',
        'get /events/{id} 404': 'An event with the specified ID does not exist.',
        'post /events/{id} 201': 'Returns the data of the created event',
        'delete /events/by-slug/{slug} 500':
          'The event with the specified ID could not be deleted.',
        // The plugin says "…with the specified event"; we name what the route takes, an ID.
        'get /organizers/{id} 404': 'An organizer with the specified ID does not exist.',
        'get /categories/{id} 200':
          'Returns the data of the event category with the specified term ID',
        'get /tags 404': 'No event tags match the query or the requested page was not found.',
        'delete /categories/{id} 410':
          'The event category with the specified term ID has been deleted already.',
      };
      const served = Object.keys(pluginTexts).map((key) => {
        const [method, path, status] = key.split(' ');
        return [key, paths[path][method].responses[status].description];
      });
      expect(Object.fromEntries(served)).toEqual(pluginTexts);
      expect(paths['/organizers/{id}'].post.responses['200']).toBeUndefined();
    });

    it('uses the plugin schemas and their texts (BEHAVIOR §3, §4)', () => {
      const { schemas } = docs.en.components;
      expect(schemas.Event.properties!.id).toEqual({
        type: 'integer',
        description: 'The event WordPress post ID',
      });
      expect(schemas.Event.properties!.venue).toEqual({
        type: 'object',
        description: 'The event venue',
        $ref: '#/components/schemas/Venue',
      });
      expect(schemas.Event.properties!.start_date_details).toEqual({
        type: 'array',
        description: 'An array of each component of the event start date',
        items: { $ref: '#/components/schemas/DateDetails' },
      });
      expect(schemas.Venue.properties!.image).toEqual({
        type: 'string',
        // The plugin's text says "event" here too (a copy); CONTRACT §6.
        description: 'The venue featured image details if set',
        $ref: '#/components/schemas/Image',
      });
      expect(schemas.Venue.properties!.stateprovince.description).toBe(
        'The venue state or province',
      );
      expect(schemas.Organizer.properties!.email.description).toBe('The organizer email address');
      expect(Object.keys(schemas.CostDetails.properties!)).toEqual([
        'currency_symbol',
        'currency_position ',
        'values',
      ]);
      expect(schemas.CostDetails.properties!['currency_position '].enum).toEqual([
        'prefix',
        'postfix',
      ]);
      expect(schemas.Term.properties!.urls.description).toBe(
        'A list of links to the term own, archive and parent REST URL',
      );
      expect(schemas.Image.properties!.url).toEqual({
        type: 'string',
        description: 'The URL to the full size version of the image',
        format: 'uri',
      });
      expect(schemas.DateDetails.properties!.minutes).toEqual({
        type: 'integer',
        description: 'The date minutes',
      });
    });
  });

  describe('languages', () => {
    it('builds the same document in every language, apart from its texts', () => {
      const en = withoutTexts(withoutServers(docs.en));
      expect(withoutTexts(withoutServers(docs.hu))).toEqual(en);
      expect(withoutTexts(withoutServers(docs.ro))).toEqual(en);
    });

    it('leaves no untranslated key behind', () => {
      for (const lang of LANGS) {
        const raw = [...texts(docs[lang])].filter(([, text]) => DOC_KEY.test(text));
        expect([lang, raw]).toEqual([lang, []]);
      }
    });

    it.each(['hu', 'ro'] as const)('translates every text into %s', (lang) => {
      const en = texts(docs.en);
      const other = texts(docs[lang]);
      expect([...other.keys()]).toEqual([...en.keys()]);
      const same = [...en].filter(
        ([path, text]) => other.get(path) === text && !SAME_EVERYWHERE.has(text),
      );
      expect(same).toEqual([]);
    });

    it('derives the index arguments from the translated documents', async () => {
      for (const lang of LANGS) {
        const index = await http().get(`/${lang}/cal/events/v1`).expect(200);
        const route = index.body.routes['/cal/events/v1/events'];
        const param = docs[lang].paths['/events'].get.parameters.find((p) => p.name === 'per_page');
        expect(route.endpoints[0].args.per_page.description).toBe(param!.description);
        const body = docs[lang].components.schemas.CreateEventDto.properties!;
        expect(route.endpoints[1].args.title.description).toBe(body.title.description);
      }
      const hu = await http().get('/hu/cal/events/v1').expect(200);
      expect(hu.body.routes['/cal/events/v1/venues/(?P<id>\\d+)'].endpoints[0].args.id).toEqual({
        description: docs.hu.paths['/venues/{id}'].get.parameters[0].description,
        type: 'integer',
        required: true,
      });
    });

    it('shows each index argument as the plugin declares it (BEHAVIOR §2)', async () => {
      const index = await http().get('/cal/events/v1').expect(200);
      const args = (path: string, endpoint = 0) =>
        index.body.routes[`/cal/events/v1${path}`].endpoints[endpoint].args as Record<
          string,
          Record<string, unknown>
        >;
      const shape = (arg: Record<string, unknown>) => ({
        ...arg,
        description: typeof arg.description,
      });
      const list = args('/events');
      // Declared with the plugin's documentation-only `swagger_type`: no `type` in the index.
      expect(shape(list.categories)).toEqual({
        description: 'string',
        items: { type: 'integer' },
        required: false,
      });
      expect(shape(list.status)).toEqual({
        description: 'string',
        format: 'string',
        required: false,
      });
      expect(shape(list.geoloc_lat)).toEqual({
        description: 'string',
        format: 'double',
        required: false,
      });
      expect(shape(list.page)).toEqual({
        default: 1,
        description: 'string',
        type: 'integer',
        required: false,
      });
      // The defaults the list applies to this request (§5.2.3; the test site is UTC).
      const utc = new Date();
      const yesterday = new Date(utc.getTime() - 86400000).toISOString().slice(0, 10);
      expect(list.start_date).toEqual({
        default: `${yesterday} 00:00:00`,
        description: expect.any(String),
        required: false,
      });
      expect(list.end_date.default).toMatch(/^\d{4}-\d\d-\d\d 23:59:59$/);
      expect(Number(String(list.end_date.default).slice(0, 4))).toBe(utc.getUTCFullYear() + 2);
      const create = args('/events', 1);
      expect(shape(create.website)).toEqual({
        default: null,
        description: 'string',
        required: false,
      });
      expect(shape(create.status)).toEqual({
        description: 'string',
        type: 'string',
        required: false,
      });
      expect(shape(args('/venues').has_events)).toEqual({ description: 'string', required: false });
      expect(shape(args('/tags').include)).toEqual({
        description: 'string',
        items: { type: 'integer' },
        required: false,
      });
    });

    it('serves the documents built at start-up without translating again', async () => {
      const service = app.get(DocsService);
      expect(service.get('hu')).toBe(service.get('hu'));
      const i18n = app.get(I18nService);
      const spy = vi.spyOn(i18n, 'translate');
      try {
        await http().get('/hu/cal/events/v1/doc').expect(200);
        await http().get('/hu/cal/events/v1/doc/ui/swagger-ui-init.js').expect(200);
        await http().get('/ro/cal/events/v1').expect(200);
        expect(spy).not.toHaveBeenCalled();
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('validity', () => {
    it.each(LANGS)('the %s document is valid OpenAPI 3.0', async (lang) => {
      const { Validator } = (await import(VALIDATOR)) as {
        Validator: new () => {
          validate(spec: object): Promise<{ valid: boolean; errors?: unknown }>;
        };
      };
      const result = await new Validator().validate(structuredClone(docs[lang]));
      expect(result.errors).toBeUndefined();
      expect(result.valid).toBe(true);
    });
  });

  describe('Swagger UI', () => {
    it.each([
      ['/cal/events/v1/doc/ui', 'en'],
      ['/hu/cal/events/v1/doc/ui', 'hu'],
      ['/ro/cal/events/v1/doc/ui/', 'ro'],
    ] as const)('serves %s with the %s document and local assets', async (page, lang) => {
      const html = await http().get(page).expect(200);
      expect(html.headers['content-type']).toMatch(/text\/html/);
      expect(html.text).toContain(`<html lang="${lang}">`);
      // No CDN: every asset comes from this server (swagger-ui-dist).
      expect(html.text).not.toMatch(/(src|href)=["']https?:/);
      const assets = [...html.text.matchAll(/(?:src|href)=["']([^"']+)["']/g)].map((m) => m[1]);
      expect(assets).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/swagger-ui-bundle\.js$/),
          expect.stringMatching(/swagger-ui\.css$/),
          expect.stringMatching(/swagger-ui-init\.js$/),
        ]),
      );
      const dir = page.endsWith('/') ? page : `${page}/`;
      const base = new URL(page, 'http://cal.test');
      for (const asset of assets) {
        const url = new URL(asset, `http://cal.test${page}`);
        expect(url.host).toBe(base.host);
        await http().get(url.pathname).expect(200);
      }
      const init = await http().get(`${dir}swagger-ui-init.js`).expect(200);
      // "Try it out" goes to this server, under the page's language prefix.
      const prefix = lang === 'en' ? '' : `/${lang}`;
      expect(init.text).toContain(`"url": "http://cal.test${prefix}/cal/events/v1/"`);
      expect(init.text).toContain(JSON.stringify(docs[lang].info.description));
    });
  });
});

/**
 * devDependency `@seriousme/openapi-schema-validator` (the OpenAPI JSON schemas, with $ref checks).
 * Imported by a non-literal specifier so that the type check passes before it is installed; once
 * it is, a static `import { Validator } from '@seriousme/openapi-schema-validator'` works as well.
 */
const VALIDATOR = '@seriousme/openapi-schema-validator';

function withoutServers(document: Json): Json {
  const { servers: _servers, ...rest } = document;
  return rest;
}
