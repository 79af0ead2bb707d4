import type { OpenAPIObject } from '@nestjs/swagger';
import { responsesFor } from './responses.js';
import { buildTecDocument, type Operation, type PathItem } from './tec-document.js';

const op = (id: string, extra: Partial<Operation> = {}): Operation => ({
  operationId: id,
  summary: `venues.doc.${id}`,
  tags: ['venues'],
  parameters: [],
  responses: { '200': { description: '' } },
  ...extra,
});

/** A small document of the shape SwaggerModule.createDocument returns. */
function raw(): OpenAPIObject {
  return {
    openapi: '3.0.0',
    paths: {
      '/health': { get: op('health') },
      '/cal/events/v1': { get: op('index', { tags: ['index'] }) },
      '/cal/events/v1/venues/by-slug/{slug}': { get: op('bySlug') },
      '/cal/events/v1/venues/{id}': {
        post: op('update', {
          parameters: [
            {
              name: 'id',
              required: true,
              in: 'path',
              description: 'venues.doc.id',
              schema: { type: 'integer' },
            },
          ],
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: { $ref: '#/components/schemas/UpdateVenueDto' } },
            },
          },
          security: [{ basic: [] }],
        }),
        get: op('get'),
      },
      '/cal/events/v1/venues': {
        get: op('list', {
          parameters: [
            {
              name: 'include',
              required: false,
              in: 'query',
              schema: { type: 'array', items: { type: 'integer' } },
            },
          ],
        }),
      },
      '/cal/events/v1/_probe': { post: op('probe') },
      '/cal/events/v1x': { get: op('elsewhere') },
    },
    info: {
      title: 'doc.info.title',
      description: 'doc.info.description',
      version: '1.0.0',
      contact: {},
    },
    tags: [],
    servers: [],
    components: {
      securitySchemes: { basic: { type: 'http', scheme: 'basic', description: 'doc.info.auth' } },
      schemas: {
        UpdateVenueDto: {
          type: 'object',
          properties: {
            venue: { type: 'string', description: 'venues.doc.venue' },
            city: { type: 'string', default: null },
          },
        },
        Term: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      },
    },
  } as unknown as OpenAPIObject;
}

describe('buildTecDocument', () => {
  const source = raw();
  const snapshot = JSON.stringify(source);
  const document = buildTecDocument(source);
  const paths = document.paths as Record<string, PathItem>;

  it('does not modify the document it is given', () => {
    expect(JSON.stringify(source)).toBe(snapshot);
  });

  it('keeps the top-level keys in the plugin order', () => {
    expect(Object.keys(document)).toEqual([
      'openapi',
      'info',
      'components',
      'servers',
      'paths',
      'tags',
    ]);
    expect(document.info).toEqual({
      version: '1.0.0',
      title: 'doc.info.title',
      description: 'doc.info.description',
    });
  });

  it('keeps only the namespace paths, relative to it, in registration order', () => {
    expect(Object.keys(paths)).toEqual([
      '/venues',
      '/venues/{id}',
      '/venues/by-slug/{slug}',
      '/',
      '/_probe',
    ]);
  });

  it('documents PUT and PATCH like POST, in the order of the endpoint groups', () => {
    const item = paths['/venues/{id}'];
    expect(Object.keys(item)).toEqual(['get', 'post', 'put', 'patch']);
    expect(item.put!.operationId).toBe('update_put');
    expect(item.patch!.operationId).toBe('update_patch');
    expect(item.put!.requestBody).toEqual(item.post!.requestBody);
    expect(Object.keys(item.post!.responses!)).toEqual(['200', '201', '400', '401', '403']);
    expect(Object.keys(item.put!.responses!)).toEqual(['200', '400', '401', '403']);
  });

  it('orders parameter keys as the plugin does and adds i18n_language once', () => {
    const [id, lang] = paths['/venues/{id}'].post!.parameters!;
    expect(Object.keys(id)).toEqual(['in', 'schema', 'description', 'required', 'name']);
    expect(lang).toEqual({
      in: 'query',
      schema: { type: 'string', enum: ['en', 'hu', 'ro'] },
      description: 'doc.common.i18n_language',
      required: false,
      name: 'i18n_language',
    });
    expect(
      paths['/venues/{id}'].post!.parameters!.filter((p) => p.name === 'i18n_language'),
    ).toHaveLength(1);
  });

  it('documents comma-separated lists and undescribed parameters', () => {
    const [include] = paths['/venues'].get!.parameters!;
    expect(include).toEqual({
      in: 'query',
      schema: { type: 'array', items: { type: 'integer' } },
      description: 'doc.common.no_description',
      required: false,
      name: 'include',
      style: 'form',
      explode: false,
    });
  });

  it('reads bodies as JSON and as forms', () => {
    const body = paths['/venues/{id}'].post!.requestBody!;
    const schema = { $ref: '#/components/schemas/UpdateVenueDto' };
    expect(body).toEqual({
      required: true,
      content: {
        'application/json': { schema },
        'application/x-www-form-urlencoded': { schema },
      },
    });
  });

  it('takes the responses of responses.ts and keeps the others', () => {
    expect(paths['/venues'].get!.responses).toEqual(responsesFor('/venues', 'get'));
    expect(paths['/_probe'].post!.responses).toEqual({
      '200': { description: 'doc.common.no_description' },
    });
  });

  it('asks for credentials on writes and makes them optional on reads', () => {
    expect(paths['/venues/{id}'].post!.security).toEqual([{ basic: [] }]);
    expect(paths['/venues/{id}'].get!.security).toEqual([{}, { basic: [] }]);
  });

  it('puts the plugin schemas first and keeps the DTO schemas after them', () => {
    const names = Object.keys(document.components!.schemas!);
    expect(names.slice(0, 8)).toEqual([
      'ImageSize',
      'CostDetails',
      'Term',
      'Image',
      'DateDetails',
      'Event',
      'Venue',
      'Organizer',
    ]);
    expect(names.at(-1)).toBe('UpdateVenueDto');
    // The hand-written Term wins over a controller's.
    expect(document.components!.schemas!.Term).not.toHaveProperty('required');
    expect(document.components!.securitySchemes).toEqual(source.components!.securitySchemes);
  });

  it('describes every DTO property and marks null defaults nullable', () => {
    const dto = document.components!.schemas!.UpdateVenueDto as {
      properties: Record<string, object>;
    };
    expect(dto.properties.city).toEqual({
      type: 'string',
      default: null,
      description: 'doc.common.no_description',
      nullable: true,
    });
  });

  it('lists the tags used, with descriptions', () => {
    expect(document.tags).toEqual([
      { name: 'venues', description: 'doc.tags.venues' },
      { name: 'index', description: 'doc.tags.index' },
    ]);
  });
});

describe('responsesFor', () => {
  it('documents list answers with their envelope and total headers', () => {
    const ok = responsesFor('/events', 'get')!['200'];
    expect(ok).toEqual({
      description: 'doc.responses.events.list_200',
      headers: {
        'X-TEC-Total': { description: 'doc.responses.headers.total', schema: { type: 'integer' } },
        'X-TEC-TotalPages': {
          description: 'doc.responses.headers.total_pages',
          schema: { type: 'integer' },
        },
      },
      content: { 'application/json': { schema: { $ref: '#/components/schemas/EventsArchive' } } },
    });
  });

  it('documents errors with the error body', () => {
    expect(responsesFor('/tags/{id}', 'delete')!['410']).toEqual({
      description: 'doc.responses.tags.delete_410',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    });
  });

  it('keeps the plugin quirks: no 403 on term reads, no 200 on organizer POST', () => {
    expect(Object.keys(responsesFor('/categories/{id}', 'get')!)).toEqual(['200', '400', '404']);
    expect(Object.keys(responsesFor('/organizers/by-slug/{slug}', 'post')!)).toEqual([
      '201',
      '400',
      '401',
      '403',
    ]);
    expect(Object.keys(responsesFor('/organizers/{id}', 'patch')!)).toEqual([
      '200',
      '400',
      '401',
      '403',
    ]);
  });

  it('knows the index, the document and nothing else', () => {
    expect(Object.keys(responsesFor('/', 'get')!)).toEqual(['200', '404']);
    expect(Object.keys(responsesFor('/doc', 'get')!)).toEqual(['200']);
    expect(responsesFor('/events', 'delete')).toBeUndefined();
    expect(responsesFor('/unknown', 'get')).toBeUndefined();
  });
});
