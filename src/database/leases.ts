import type { DataSource } from 'typeorm';

/**
 * The named leases (`leases`, migration 1766047000000) that let one process at a time, of those
 * sharing the database, run a job: the webhooks' fan-out (`fanout`), the recurring events' horizon
 * pass (`series-horizon`). A lease is one row, taken by a conditional UPDATE whose affected-row
 * count says who won; it runs out at `lease_until` (ms since the epoch), so a holder that dies
 * loses it. A new job adds its row in a migration.
 */
export class Leases {
  /**
   * `mark` starts every statement (the webhooks mark their background work, so that the
   * statements a request sends can be told apart).
   */
  constructor(
    private readonly ds: DataSource,
    private readonly mark = '',
  ) {}

  /**
   * Takes lease `name` for `owner` until `until`, or keeps it when `owner` holds it already; false
   * when another holder's runs after `now`.
   */
  async take(name: string, owner: string, now: number, until: number): Promise<boolean> {
    return (
      (await this.run(
        'UPDATE leases SET owner = ?, lease_until = ? WHERE name = ? AND (lease_until <= ? OR owner = ?)',
        [owner, until, name, now, owner],
      )) === 1
    );
  }

  /** Gives lease `name` up, if `owner` still holds it. */
  async release(name: string, owner: string): Promise<void> {
    await this.run('UPDATE leases SET lease_until = 0 WHERE name = ? AND owner = ?', [name, owner]);
  }

  /** Runs a statement on the primary and answers how many rows it changed. */
  private async run(sql: string, params: unknown[]): Promise<number> {
    const runner = this.ds.createQueryRunner('master');
    try {
      return (await runner.query(`${this.mark}${sql}`, params, true)).affected ?? 0;
    } finally {
      await runner.release();
    }
  }
}
