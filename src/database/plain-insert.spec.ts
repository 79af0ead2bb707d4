import { Column, DataSource, Entity, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { FlagColumn } from './columns.js';
import { insertRows } from './plain-insert.js';

@Entity('plain_rows')
class PlainRow {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 20 })
  name!: string;

  @Column({ type: 'varchar', length: 20, default: 'kept' })
  note?: string;

  @FlagColumn('shown')
  shown?: boolean;
}

@Entity('counted_rows')
class CountedRow {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id?: number;

  @Column({ type: 'varchar', length: 20 })
  name!: string;
}

describe('insertRows', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [PlainRow, CountedRow],
      synchronize: true,
    });
    await ds.initialize();
  });
  afterAll(() => ds.destroy());

  const row = (values: Partial<PlainRow>) => Object.assign(new PlainRow(), values);

  it('writes rows in one plain INSERT, values through the column transformers, defaults kept', async () => {
    const query = vi.spyOn(ds.manager, 'query');
    const insert = vi.spyOn(ds.manager, 'insert');
    const rows = [
      row({ id: 1, name: 'one', shown: true }),
      row({ id: 2, name: 'two', shown: false }),
    ];
    await insertRows(ds.manager, PlainRow, rows);
    expect(insert).not.toHaveBeenCalled();
    expect(query).toHaveBeenCalledTimes(1);
    const [sql, params] = query.mock.calls[0];
    expect(sql).toMatch(
      /^INSERT INTO "plain_rows" \("id", "name", "shown"\) VALUES \(\?, \?, \?\), \(\?, \?, \?\)$/,
    );
    expect(params).toEqual([1, 'one', 1, 2, 'two', 0]);
    expect(await ds.query('SELECT id, name, note, shown FROM plain_rows ORDER BY id')).toEqual([
      { id: 1, name: 'one', note: 'kept', shown: 1 },
      { id: 2, name: 'two', note: 'kept', shown: 0 },
    ]);
    // The rows are left as they were given.
    expect(rows[0]).toEqual(row({ id: 1, name: 'one', shown: true }));
    query.mockRestore();
    insert.mockRestore();
  });

  it("leaves rows of different shapes, and entities with generated columns, to TypeORM's insert", async () => {
    const insert = vi.spyOn(ds.manager, 'insert');
    await insertRows(ds.manager, PlainRow, [
      row({ id: 3, name: 'three' }),
      row({ id: 4, name: 'four', note: 'own' }),
    ]);
    await insertRows(ds.manager, CountedRow, [
      Object.assign(new CountedRow(), { name: 'counted' }),
    ]);
    expect(insert).toHaveBeenCalledTimes(2);
    expect(await ds.query('SELECT id, note FROM plain_rows WHERE id > 2 ORDER BY id')).toEqual([
      { id: 3, note: 'kept' },
      { id: 4, note: 'own' },
    ]);
    expect(await ds.query('SELECT name FROM counted_rows')).toEqual([{ name: 'counted' }]);
    insert.mockRestore();
  });

  it('writes nothing for no rows', async () => {
    const query = vi.spyOn(ds.manager, 'query');
    await insertRows(ds.manager, PlainRow, []);
    expect(query).not.toHaveBeenCalled();
    query.mockRestore();
  });
});
