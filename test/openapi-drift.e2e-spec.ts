import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { LANGUAGES } from '../src/config/config.js';
import { OPENAPI_FILE_ENV, serializeOpenApi } from '../src/docs/openapi-file.js';
import { PROJECT_ROOT } from '../src/config/paths.js';
import { closeApp, createTestApp } from './helpers/create-test-app.js';

/** The first line where two texts differ, to say where the committed document is stale. */
function firstDifference(committed: string, served: string): string {
  const a = committed.split('\n');
  const b = served.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '')}, served ${JSON.stringify(b[at] ?? '')}`;
}

describe('committed OpenAPI documents (docs/openapi/)', () => {
  let app: NestExpressApplication;
  beforeAll(async () => {
    app = await createTestApp({ env: { ...OPENAPI_FILE_ENV } });
  });
  afterAll(() => closeApp(app));

  it.each([...LANGUAGES])(
    'docs/openapi/%s.json is the document the server serves',
    async (lang) => {
      const res = await request(app.getHttpServer()).get(`/${lang}/cal/events/v1/doc`).expect(200);
      const served = serializeOpenApi(res.body);
      const file = join(PROJECT_ROOT, 'docs', 'openapi', `${lang}.json`);
      let committed = '';
      try {
        committed = readFileSync(file, 'utf8');
      } catch {
        // A missing file is reported below like a stale one.
      }
      if (committed !== served) {
        throw new Error(
          `docs/openapi/${lang}.json differs from the document served at /${lang}/cal/events/v1/doc ` +
            `(${committed ? firstDifference(committed, served) : 'the file is missing'}): ` +
            'run npm run docs:openapi and commit the result.',
        );
      }
    },
  );
});
