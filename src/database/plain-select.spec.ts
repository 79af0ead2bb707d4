import { Column, DataSource, Entity, In, PrimaryColumn } from 'typeorm';
import { DateTimeColumn, FlagColumn } from './columns.js';
import { selectRows } from './plain-select.js';

@Entity('selected_rows')
class SelectedRow {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 20 })
  name!: string;

  @Column({ type: 'integer' })
  position!: number;

  @FlagColumn('shown')
  shown!: boolean;

  @DateTimeColumn('starts')
  starts!: string;

  @Column({
    type: 'varchar',
    length: 20,
    nullable: true,
    transformer: { to: (v: string | null) => v, from: (v: string | null) => v ?? 'none' },
  })
  note!: string | null;
}

describe('selectRows', () => {
  let ds: DataSource;

  beforeAll(async () => {
    ds = new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: [SelectedRow],
      synchronize: true,
    });
    await ds.initialize();
    await ds.query(
      `INSERT INTO selected_rows (id, name, position, shown, starts, note) VALUES
       (1, 'one', 2, 1, '2026-01-02 10:00:00', 'a'), (2, 'two', 1, 0, '2026-01-03 10:00:00', NULL),
       (3, 'three', 1, 1, '2026-01-04 10:00:00', 'c')`,
    );
  });
  afterAll(() => ds.destroy());

  it('answers what find with In answers, hydrated by the same rules, in one statement', async () => {
    const query = vi.spyOn(ds.manager, 'query');
    const plain = await selectRows(ds.manager, SelectedRow, 'id', [3, 1, 2, 9]);
    expect(query).toHaveBeenCalledTimes(1);
    query.mockRestore();
    const found = await ds.manager.find(SelectedRow, { where: { id: In([3, 1, 2, 9]) } });
    const byId = <T extends { id: number }>(rows: T[]) => [...rows].sort((a, b) => a.id - b.id);
    expect(byId(plain)).toStrictEqual(byId(found));
    expect(plain.every((row) => row instanceof SelectedRow)).toBe(true);
    expect(byId(plain).map((r) => [r.shown, r.note])).toEqual([
      [true, 'a'],
      [false, 'none'],
      [true, 'c'],
    ]);
  });

  it('orders by the columns given, and binds values that are not integers', async () => {
    const rows = await selectRows(
      ds.manager,
      SelectedRow,
      'name',
      ['two', 'one', 'three'],
      ['position', 'id'],
    );
    expect(rows.map((r) => r.id)).toEqual([2, 3, 1]);
    // A value is bound, never written into the statement.
    expect(await selectRows(ds.manager, SelectedRow, 'name', ["one') OR 1=1 --"])).toEqual([]);
  });

  it('reads nothing for no values', async () => {
    const query = vi.spyOn(ds.manager, 'query');
    expect(await selectRows(ds.manager, SelectedRow, 'id', [])).toEqual([]);
    expect(query).not.toHaveBeenCalled();
    query.mockRestore();
  });
});
