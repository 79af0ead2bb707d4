// @ts-expect-error: better-sqlite3 ships without types (TypeORM drives it)
import BetterSqlite from 'better-sqlite3';
import { ensureMathFunctions, type SqliteConnection } from './sqlite-math.js';

const Database = BetterSqlite as new (path: string) => SqliteConnection & { close(): void };

describe('ensureMathFunctions', () => {
  it('keeps the functions SQLite has', () => {
    const db = new Database(':memory:');
    expect(ensureMathFunctions(db)).toEqual([]);
    db.close();
  });

  it('adds the ones it lacks, with the same results', () => {
    const registered = new Map<string, (x: number) => number>();
    const fake: SqliteConnection = {
      prepare: (sql) => ({
        get: () => {
          if (!registered.has(/SELECT (\w+)/.exec(sql)![1])) throw new Error('no such function');
        },
      }),
      function: (name, _options, fn) => registered.set(name, fn),
    };
    expect(ensureMathFunctions(fake)).toEqual(['sin', 'cos', 'radians']);
    expect(ensureMathFunctions(fake)).toEqual([]);
    const db = new Database(':memory:');
    const native = db.prepare('SELECT sin(0.7) s, cos(0.7) c, radians(123.4) r').get();
    expect({
      s: registered.get('sin')!(0.7),
      c: registered.get('cos')!(0.7),
      r: registered.get('radians')!(123.4),
    }).toEqual(native);
    expect(registered.get('sin')!(null as unknown as number)).toBeNull();
    db.close();
  });
});
