import { MigrationInterface, QueryRunner, Table, TableColumn, TableIndex } from 'typeorm';

/**
 * The editors' console (CONTRACT §2): a person logs in with a login and a console password, kept
 * apart from the application password that HTTP Basic checks (`users.login_password_hash`, NULL
 * until an administrator or the CLI gives one), and gets a session (`user_sessions`): a random
 * token in an HttpOnly cookie, of which the table keeps only the SHA-256 (`token_hash`), so that
 * a copy of the database opens no session. Logging out deletes the row; a row past `expires_at`
 * (milliseconds since the epoch) opens nothing and is deleted by the next login.
 */
export class ConsoleSessions1765950000000 implements MigrationInterface {
  name = 'ConsoleSessions1765950000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn(
      'users',
      new TableColumn({
        name: 'login_password_hash',
        type: 'varchar',
        length: '255',
        isNullable: true,
      }),
    );
    await q.createTable(
      new Table({
        name: 'user_sessions',
        columns: [
          { name: 'token_hash', type: 'varchar', length: '64', isPrimary: true },
          { name: 'user_id', type: 'integer' },
          { name: 'expires_at', type: 'bigint' },
          { name: 'created_at', type: 'bigint' },
        ],
        indices: [
          new TableIndex({ name: 'IDX_user_sessions_user', columnNames: ['user_id'] }),
          new TableIndex({ name: 'IDX_user_sessions_expires', columnNames: ['expires_at'] }),
        ],
      }),
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropTable('user_sessions');
    await q.dropColumn('users', 'login_password_hash');
  }
}
