// Writes docs/openapi/{en,hu,ro}.json: the OpenAPI documents exactly as a server with the
// settings of src/docs/openapi-file.ts serves them at /{lang}/cal/events/v1/doc.
// test/openapi-drift.e2e-spec.ts fails when they differ from what the server serves.
//
//   npm run docs:openapi
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { compileFast } from './compile-fast.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'docs', 'openapi');
const LANGUAGES = ['en', 'hu', 'ro'];

const build = await compileFast();
const load = (path) => import(pathToFileURL(join(build, path)).href);
const { OPENAPI_FILE_ENV, serializeOpenApi } = await load('docs/openapi-file.js');

// A throw-away in-memory database; no start-up administrator, no request log.
for (const name of ['ADMIN_LOGIN', 'ADMIN_PASSWORD', 'MAX_PER_PAGE', 'CORS_ORIGINS', 'TRUST_PROXY'])
  delete process.env[name];
Object.assign(process.env, OPENAPI_FILE_ENV, {
  DATABASE_URL: 'sqlite::memory:',
  MIGRATIONS_RUN: 'true',
  LOG_REQUESTS: 'false',
});

const { NestFactory } = await import('@nestjs/core');
const { AppModule } = await load('app.module.js');
const { configureApp } = await load('configure-app.js');
const { BodyBytesAdapter } = await load('common/http/body-bytes.adapter.js');

// The adapter main.ts uses: controllers answer JSON as ready pieces, which it sends as bytes.
const app = await NestFactory.create(AppModule, new BodyBytesAdapter(), { logger: ['error'] });
configureApp(app);
await app.listen(0, '127.0.0.1');
try {
  const { port } = app.getHttpServer().address();
  await mkdir(OUT, { recursive: true });
  for (const lang of LANGUAGES) {
    const res = await fetch(`http://127.0.0.1:${port}/${lang}/cal/events/v1/doc`);
    if (res.status !== 200) throw new Error(`/${lang}/cal/events/v1/doc answered ${res.status}`);
    const file = join(OUT, `${lang}.json`);
    await writeFile(file, serializeOpenApi(await res.json()));
    console.log(`wrote ${relative(process.cwd(), file)}`);
  }
} finally {
  await app.close();
}
