import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';

const column = (length: number) =>
  new TableColumn({
    name: 'currency_symbol',
    type: 'varchar',
    length: String(length),
    default: "''",
  });

/**
 * The currency symbol is what is left of a cost value without its numbers (`Free for members,
 * 10` → `Free for members,`), so it can be as long as a cost value (CONTRACT §4: 255 characters).
 * At 20 characters a longer one was a "Data too long" 500 on MySQL/MariaDB.
 */
export class CurrencySymbolWidth1764360000000 implements MigrationInterface {
  name = 'CurrencySymbolWidth1764360000000';

  async up(q: QueryRunner): Promise<void> {
    await q.changeColumn('events', 'currency_symbol', column(255));
  }

  async down(q: QueryRunner): Promise<void> {
    // SUBSTR counts characters on both engines, as varchar(20) does.
    await q.query('UPDATE events SET currency_symbol = SUBSTR(currency_symbol, 1, 20)');
    await q.changeColumn('events', 'currency_symbol', column(20));
  }
}
