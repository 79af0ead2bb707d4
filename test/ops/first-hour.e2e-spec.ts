import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROCESS_DEADLINE_MS, ROOT } from '../helpers/spawn.js';
import { VARIABLES } from '../../src/config/schema.js';
import { useTestApp } from '../helpers/app-fixture.js';

/** What a newcomer's first requests meet (issue 52). */
describe('the first hour (e2e)', () => {
  const { http, users } = useTestApp();

  const json = JSON.stringify({
    title: 'Jazz night',
    start_date: 'tomorrow 8pm',
    end_date: 'tomorrow 11pm',
  });

  it.each([
    ['', 'Missing parameter(s): title, start_date, end_date', 'Content-Type: application/json'],
    [
      '/hu',
      'Hiányzó paraméter(ek): title, start_date, end_date',
      'Content-Type: application/json fejléccel',
    ],
    [
      '/ro',
      'Parametri lipsă: title, start_date, end_date',
      'cu antetul Content-Type: application/json',
    ],
  ])(
    "a JSON body sent as a form (curl -d) keeps the plugin's code and says which header is missing (%s)",
    async (prefix, plugin, hint) => {
      const res = await http()
        .post(`${prefix}/cal/events/v1/events`)
        .set('Authorization', users.editor.header)
        .type('form')
        .send(json)
        .expect(400);
      expect(res.body.code).toBe('rest_missing_callback_param');
      expect(res.body.message.startsWith(`${plugin}. `)).toBe(true);
      expect(res.body.message).toContain(hint);
      expect(res.body.data.status).toBe(400);
      // Nothing was written.
      const list = await http()
        .get('/cal/events/v1/events')
        .set('Authorization', users.editor.header);
      expect(list.body.events ?? []).toHaveLength(0);
    },
  );

  it('a real form, or JSON with its header, gets no hint', async () => {
    const form = await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .type('form')
      .send('title=Jazz')
      .expect(400);
    expect(form.body.message).toBe('Missing parameter(s): start_date, end_date');
    const missing = await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .send({ title: 'Jazz' })
      .expect(400);
    expect(missing.body.message).toBe('Missing parameter(s): start_date, end_date');
    await http()
      .post('/cal/events/v1/events')
      .set('Authorization', users.editor.header)
      .set('Content-Type', 'application/json')
      .send(json)
      .expect(201);
  });
});

/** What README and CONTRIBUTING say about the configuration and the tests, kept true. */
describe('the documents a newcomer reads first', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const contributing = readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8');

  it("README's configuration table names only variables the program reads, and points to CONTRACT §1 for all of them", () => {
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('## Docker'));
    // src/config/schema.spec.ts checks that CONTRACT §1 lists every declared variable.
    expect(section).toContain('the full list, with');
    expect(section).toContain('[CONTRACT §1](docs/spec/CONTRACT.md#1-running-it)');
    const declared = new Set(VARIABLES.map((v) => v.name));
    const named = [...section.matchAll(/^\| ([^|]+)\|/gm)].flatMap(([, cell]) =>
      [...cell.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map(([, name]) => name),
    );
    expect(named.length).toBeGreaterThan(30);
    // OTEL_SERVICE_NAME is read by the OpenTelemetry SDK itself; CONTRACT §1 names it too.
    const contract = readFileSync(join(ROOT, 'docs/spec/CONTRACT.md'), 'utf8');
    const section1 = contract.slice(contract.indexOf('## 1.'), contract.indexOf('## 2.'));
    expect(
      named.filter((name) => !declared.has(name) && !section1.includes(`\`${name}\``)),
    ).toEqual([]);
  });

  it('CONTRIBUTING names every test file that skips some of its tests', () => {
    const skips = /describe\.skip|it\.skip|\.skipIf\(|\.runIf\(|\bneeds\(/;
    const files = ['test', 'src']
      .flatMap((dir) =>
        (readdirSync(join(ROOT, dir), { recursive: true }) as string[]).map((f) => `${dir}/${f}`),
      )
      .filter((f) => /\.(e2e-)?spec\.ts$/.test(f) && f !== 'test/ops/first-hour.e2e-spec.ts')
      .filter((f) => skips.test(readFileSync(join(ROOT, f), 'utf8')));
    expect(files.length).toBeGreaterThan(5);
    const paragraph = contributing.slice(contributing.indexOf('- Skipped tests, and why'));
    expect(files.filter((f) => !paragraph.includes(`\`${f}\``))).toEqual([]);
  });

  it('npm test with a TEST_DATABASE_URL whose database name lacks "test" stops in one line', () => {
    const result = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'src/config/messages.spec.ts'],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: PROCESS_DEADLINE_MS,
        env: {
          PATH: process.env.PATH ?? '',
          TEST_DATABASE_URL: 'mariadb://root@127.0.0.1:3306/cal_production',
        },
      },
    );
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([
      'TEST_DATABASE_URL must name a database whose name contains "test" (it is dropped and recreated for every test file), got "cal_production"',
    ]);
    expect(result.stdout).not.toContain('No test files found');
  });
});
