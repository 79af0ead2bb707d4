import { Writable } from 'node:stream';
import { pino } from 'pino';
import { AppLogger } from './app-logger.js';

/** The JSON lines an AppLogger writes, parsed. */
function capture() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: new AppLogger(pino(sink)), lines };
}

describe('AppLogger', () => {
  it('says once, at the first attempt, that the database is being retried and why', () => {
    const { logger, lines } = capture();
    const stack = 'Error: connect ECONNREFUSED 127.0.0.1:3307\n    at TCPConnectWrap.afterConnect';
    for (let n = 1; n <= 5; n++) {
      logger.error(`Unable to connect to the database. Retrying (${n})...`, stack, 'TypeOrmModule');
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, context: 'TypeOrmModule' });
    expect(lines[0].msg).toBe(
      'Cannot connect to the database (DATABASE_URL), retrying for a few seconds: Error: connect ECONNREFUSED 127.0.0.1:3307',
    );
  });

  it('keeps other database errors as they are, on one line', () => {
    const { logger, lines } = capture();
    logger.error('Something else', 'Error: boom\n    at x', 'TypeOrmModule');
    expect(lines.map((l) => l.msg)).toEqual(['Something else Error: boom']);
  });
});
