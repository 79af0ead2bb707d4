import type { Connection } from 'mysql2/promise';
import type { DatabaseConfig } from '../config/config.js';

export type MysqlConfig = Exclude<DatabaseConfig, { type: 'sqlite' }>;

/**
 * A MySQL/MariaDB connection of its own, outside the pool (the health monitor's ping, the write
 * generation, the replicas' progress): checks that must not wait behind busy requests.
 *
 * The error listener is attached before the connection is even made, so that no error of it can
 * go unheard (an unheard 'error' event crashes the process): one before the connection is
 * established rejects the promise, any later one (the server gone, a dropped socket) calls
 * `onLost`, which should forget the connection.
 *
 * mysql2 is loaded here, when a connection is first opened: a server on the embedded database
 * never loads it (about 3 MB of heap for a driver it does not use; docs/operations.md, "Memory").
 */
async function openSideConnection(
  db: MysqlConfig,
  timeoutMs: number,
  multipleStatements: boolean,
  onLost: () => void,
): Promise<Connection> {
  const { createConnection } = await import('mysql2');
  return new Promise((resolve, reject) => {
    let connected = false;
    const core = createConnection({
      host: db.host,
      port: db.port,
      user: db.username,
      password: db.password,
      database: db.database,
      connectTimeout: timeoutMs,
      // No long stack trace captured at every statement: their callers report an error by its
      // message, and the write generation runs statements after every write (a stack trace
      // each cost about 3 % of a create's CPU).
      trace: false,
      multipleStatements,
    });
    core.on('error', (error) => {
      if (connected) onLost();
      else reject(error);
    });
    core.once('connect', () => {
      connected = true;
      resolve(core.promise());
    });
  });
}

/**
 * One side connection, opened when first needed and forgotten when lost: `get()` opens it (or
 * hands back the one being opened), `drop()` closes it; the next `get()` opens a new one.
 */
export class SideConnection {
  private connection: Promise<Connection> | undefined;

  constructor(
    private readonly db: MysqlConfig,
    private readonly timeoutMs: number,
    /**
     * Several statements in one round trip (the write generation's increment, all of whose SQL
     * is its own, values escaped by the driver): never for SQL that carries outside text.
     */
    private readonly multipleStatements = false,
  ) {}

  get(): Promise<Connection> {
    this.connection ??= openSideConnection(
      this.db,
      this.timeoutMs,
      this.multipleStatements,
      () => void this.drop(),
    );
    return this.connection;
  }

  async drop(): Promise<void> {
    const pending = this.connection;
    this.connection = undefined;
    if (!pending) return;
    try {
      (await pending).destroy();
    } catch {
      // It never connected.
    }
  }
}
