import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assertBuilt,
  freePort,
  MAIN,
  PROCESS_DEADLINE_MS,
  ROOT,
  tempSqliteUrl,
} from '../helpers/spawn.js';
import { until } from '../helpers/until.js';

/**
 * `npm start` as users stop it: by the PID of the npm process. npm passes SIGTERM on to the
 * script's process, which must be the server itself (not a shell that would leave it running).
 * The script is the project's own `start` line, run by npm, on the test build of the server.
 */
describe('npm start', () => {
  beforeAll(assertBuilt);

  it(
    'stops the server when the npm process is stopped by its PID',
    async () => {
      const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      };
      expect(scripts.start).toContain('dist/main.js');
      const dir = mkdtempSync(join(tmpdir(), 'cal-npm-start-'));
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'start-probe',
          private: true,
          scripts: {
            start: scripts.start
              .replace('scripts/node.sh', JSON.stringify(join(ROOT, 'scripts/node.sh')))
              .replace('dist/main.js', JSON.stringify(MAIN)),
          },
        }),
      );
      const port = await freePort();
      const health = `http://127.0.0.1:${port}/health`;
      const answers = () =>
        fetch(health).then(
          (res) => res.ok,
          () => false,
        );
      const npm = spawn('npm', ['start'], {
        cwd: dir,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          DATABASE_URL: tempSqliteUrl(),
          PORT: String(port),
          HOST: '127.0.0.1',
        },
        stdio: 'ignore',
      });
      try {
        await until(answers, PROCESS_DEADLINE_MS, 'the server to answer /health');
        npm.kill('SIGTERM');
        await until(async () => !(await answers()), PROCESS_DEADLINE_MS, 'the server to stop');
        await until(() => npm.exitCode !== null || npm.signalCode !== null, 30_000, 'npm to exit');
      } finally {
        npm.kill('SIGKILL');
      }
    },
    3 * PROCESS_DEADLINE_MS,
  );
});
