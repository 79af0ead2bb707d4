import type { OpenAPIObject } from '@nestjs/swagger';
import { translateDocument } from './translate-document.js';

describe('translateDocument', () => {
  const source = {
    openapi: '3.0.0',
    info: { title: 'doc.info.title', description: 'doc.info.description', version: '1.0.0' },
    paths: {
      '/events': {
        get: {
          summary: 'events.doc.op.list',
          parameters: [{ name: 'doc.common.page', in: 'query', description: 'doc.common.page' }],
          responses: { '200': { description: 'Plain text stays', content: {} } },
        },
      },
    },
    components: {
      schemas: { Event: { title: 'events', properties: { id: { type: 'integer' } } } },
    },
  } as unknown as OpenAPIObject;

  const translated = translateDocument(source, (key) => `<${key}>`);

  it('translates keys in description, summary and title only', () => {
    expect(translated.info).toEqual({
      title: '<doc.info.title>',
      description: '<doc.info.description>',
      version: '1.0.0',
    });
    type Get = {
      summary: string;
      parameters: object[];
      responses: Record<string, { description: string }>;
    };
    const { get } = translated.paths['/events'] as unknown as { get: Get };
    expect(get.summary).toBe('<events.doc.op.list>');
    expect(get.parameters[0]).toEqual({
      name: 'doc.common.page',
      in: 'query',
      description: '<doc.common.page>',
    });
    expect(get.responses['200'].description).toBe('Plain text stays');
    expect((translated.components!.schemas!.Event as { title: string }).title).toBe('events');
  });

  it('returns a copy and leaves the source alone', () => {
    expect(source.info.title).toBe('doc.info.title');
    expect(translated.paths).not.toBe(source.paths);
  });
});
