import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isOlderNode, OLDEST_NODE } from '../../src/config/node-version.js';
import {
  assertBuilt,
  CLI,
  freePort,
  MAIN,
  MIGRATE,
  PROCESS_DEADLINE_MS,
  ROOT,
  tempSqliteUrl,
} from '../helpers/spawn.js';
import { until } from '../helpers/until.js';

/**
 * On a machine whose Node is older than `engines` says: the program run directly says so in one
 * line (it crashed with a segmentation fault under Node 20, in the native SQLite module), and
 * `npm start` and `npm run cli` run it on Node 24 from the npm registry (scripts/node.sh).
 *
 * The older Node is the machine's own (`/usr/bin/node`, or OLDER_NODE): at the gate, `node` on
 * PATH is Node 24 while Debian's /usr/bin/node is 20. Where no older Node exists the two process
 * tests are skipped with that reason.
 */
const versionOf = (node: string): string | undefined => {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
  } catch {
    return undefined;
  }
};
const OLDER_NODE = [process.env.OLDER_NODE, '/usr/bin/node', '/usr/local/bin/node'].find(
  (node): node is string =>
    node !== undefined && existsSync(node) && isOlderNode(versionOf(node) ?? '99'),
);
const withOlderNode = OLDER_NODE ? describe : describe.skip;

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe('the oldest Node', () => {
  it('is one number: package.json engines, src/config/node-version.ts and scripts/node.sh', () => {
    expect(packageJson.engines.node).toBe(`>=${OLDEST_NODE}`);
    const script = readFileSync(join(ROOT, 'scripts/node.sh'), 'utf8');
    const [major, minor] = OLDEST_NODE.split('.');
    expect(script).toContain(`OLDEST_MAJOR=${major}\n`);
    expect(script).toContain(`OLDEST_MINOR=${minor}\n`);
    expect([isOlderNode('20.20.2'), isOlderNode('22.12.0'), isOlderNode('18.0.0')]).toEqual([
      true,
      true,
      true,
    ]);
    expect([isOlderNode('22.13.0'), isOlderNode('24.1.0'), isOlderNode('30.0.0')]).toEqual([
      false,
      false,
      false,
    ]);
  });
});

withOlderNode(`on an older Node (${OLDER_NODE ?? 'none on this machine'})`, () => {
  beforeAll(assertBuilt);
  const older = OLDER_NODE!;

  it.each([
    ['the server', MAIN, []],
    ['the CLI', CLI, ['user:list']],
    ['the migrations', MIGRATE, ['check']],
  ])(
    '%s run directly says in one line which Node it needs, exit 1, no crash',
    (_, script, args) => {
      const dir = mkdtempSync(join(tmpdir(), 'cal-old-node-'));
      const { status, signal, stdout, stderr } = spawnSyncOlder(older, [script, ...args], {
        PATH: `${dirname(older)}:/usr/bin:/bin`,
        DATABASE_URL: `sqlite:${join(dir, 'calendar.sqlite')}`,
        LANG: 'C',
      });
      expect(signal).toBeNull();
      expect(status).toBe(1);
      expect(stdout).toBe('');
      const lines = stderr.trimEnd().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Node.js ${OLDEST_NODE} or later`);
      expect(lines[0]).toContain(`v${versionOf(older)}`);
      expect(lines[0]).toContain('npm install --prefix ~/.cache/cal-node24 node@24');
      // Nothing was opened: the database file was never created.
      expect(existsSync(join(dir, 'calendar.sqlite'))).toBe(false);
    },
  );

  it(
    '`npm start` and `npm run cli` with only that Node on PATH run on Node 24 and say so',
    async () => {
      // The project's own scripts, run by the older Node's npm, in a folder of their own (so that
      // the checkout's dist/ is not rebuilt), pointing at the test build and at scripts/node.sh.
      const dir = mkdtempSync(join(tmpdir(), 'cal-old-node-npm-'));
      const local = (script: string) =>
        script
          .replace('scripts/node.sh', JSON.stringify(join(ROOT, 'scripts/node.sh')))
          .replaceAll('dist/cli/main.js', JSON.stringify(CLI))
          .replace('dist/main.js', JSON.stringify(MAIN));
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({
          name: 'old-node-probe',
          private: true,
          scripts: { start: local(packageJson.scripts.start), cli: local(packageJson.scripts.cli) },
        }),
      );
      // Node 24 as scripts/node.sh keeps it, in $HOME/.cache/cal-node24: this machine's copy
      // when it has one (the gate's), so that the test does not download 100 MB each time.
      const home = join(dir, 'home');
      mkdirSync(join(home, '.cache'), { recursive: true });
      const cached = process.env.CAL_NODE_PREFIX ?? join(homedir(), '.cache/cal-node24');
      if (existsSync(join(cached, 'node_modules/.bin/node'))) {
        symlinkSync(cached, join(home, '.cache/cal-node24'));
      }
      const env = {
        PATH: `${dirname(older)}:/usr/bin:/bin`,
        HOME: home,
        DATABASE_URL: tempSqliteUrl(),
        HOST: '127.0.0.1',
        LANG: 'C',
      };
      expect(
        versionOf(execFileSync('sh', ['-c', 'command -v node'], { env }).toString().trim()),
      ).toBe(versionOf(older));

      const created = spawnSyncOlder(
        'npm',
        ['run', '--silent', 'cli', '--', 'user:create', 'bob', '--role', 'editor'],
        env,
        dir,
      );
      expect(created.signal).toBeNull();
      expect(created.status).toBe(0);
      expect(created.stdout.trimEnd().split('\n').at(-1)).toMatch(/^(\w{4} ){5}\w{4}$/);
      expect(created.stderr).toMatch(
        new RegExp(
          `^using Node v24\\.\\S+ from \\S+: the node on PATH is v${versionOf(older)!.replaceAll('.', '\\.')}, older than the ${OLDEST_NODE.replace('.', '\\.')} this project needs$`,
          'm',
        ),
      );

      const port = await freePort();
      const npm = spawn('npm', ['start'], { cwd: dir, env: { ...env, PORT: String(port) } });
      let stderr = '';
      npm.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const answers = () =>
        fetch(`http://127.0.0.1:${port}/cal/events/v1/events`).then(
          (res) => res.ok,
          () => false,
        );
      try {
        await until(answers, PROCESS_DEADLINE_MS, 'the server started by npm start to answer');
        expect(stderr).toContain('using Node v24.');
        npm.kill('SIGTERM');
        await until(() => npm.exitCode !== null || npm.signalCode !== null, 30_000, 'npm to exit');
      } finally {
        npm.kill('SIGKILL');
      }
    },
    3 * PROCESS_DEADLINE_MS,
  );
});

/** Runs a command to its end (on the older Node, by the PATH given) with only `env`. */
function spawnSyncOlder(
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
): { status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string } {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: PROCESS_DEADLINE_MS,
  });
  return {
    status: result.status,
    signal: result.signal,
    stdout: result.stdout,
    stderr: result.stderr,
  };
}
