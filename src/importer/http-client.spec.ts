import { createServer } from 'node:net';
import { cliMessages } from '../config/messages.js';
import { HttpClient, SourceError } from './http-client.js';

/** A port nothing listens on: one the kernel gave a listener that is closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('HttpClient network errors', () => {
  it('are said in words, in the operator language, with the Node code kept', async () => {
    const client = new HttpClient({ attempts: 1, timeoutMs: 5_000 });
    // The port is free again once closed: another process on the machine (a second test run)
    // may take it before the request is made. Then a server answers, and another port is tried.
    const refused = (e: unknown) =>
      e instanceof SourceError && JSON.stringify(e.args).includes('ECONNREFUSED');
    let url = '';
    let error: unknown = null;
    for (let attempt = 0; attempt < 5 && !refused(error); attempt++) {
      url = `http://127.0.0.1:${await closedPort()}/wp-json/`;
      error = await client.get(url).then(
        () => null,
        (e: unknown) => e,
      );
    }
    expect(error).toBeInstanceOf(SourceError);
    const { key, args } = error as SourceError;
    expect(cliMessages('en').t(key, args)).toBe(
      `${url}: nothing accepts connections at that address (ECONNREFUSED) (gave up after 1 attempt)`,
    );
    expect(cliMessages('hu').t(key, args)).toContain(
      'ezen a címen semmi sem fogad kapcsolatot (ECONNREFUSED)',
    );
  });
});
