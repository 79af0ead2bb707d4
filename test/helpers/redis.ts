import { spawnSync } from 'node:child_process';
import { createConnection } from 'node:net';

/** Whether a Redis server answers on 127.0.0.1:6379; starts one when none does and it can. */
export async function redisAnswers(): Promise<boolean> {
  if (await ping()) return true;
  spawnSync(
    'redis-server',
    [
      '--daemonize',
      'yes',
      '--bind',
      '127.0.0.1',
      '--port',
      '6379',
      '--save',
      '',
      '--appendonly',
      'no',
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 20; i++) {
    if (await ping()) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

function ping(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port: 6379 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}
