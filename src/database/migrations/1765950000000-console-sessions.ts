import { type QueryRunner, TableColumn, type TableOptions } from 'typeorm';
import { index, tablesMigration } from './schema-steps.js';

const USER_SESSIONS: TableOptions = {
  name: 'user_sessions',
  columns: [
    { name: 'token_hash', type: 'varchar', length: '64', isPrimary: true },
    { name: 'user_id', type: 'integer' },
    { name: 'expires_at', type: 'bigint' },
    { name: 'created_at', type: 'bigint' },
  ],
  indices: [
    index('IDX_user_sessions_user', ['user_id']),
    index('IDX_user_sessions_expires', ['expires_at']),
  ],
};

/**
 * The editors' console (CONTRACT §2): a person logs in with a login and a console password, kept
 * apart from the application password that HTTP Basic checks (`users.login_password_hash`, NULL
 * until an administrator or the CLI gives one), and gets a session (`user_sessions`): a random
 * token in an HttpOnly cookie, of which the table keeps only the SHA-256 (`token_hash`), so that
 * a copy of the database opens no session. Logging out deletes the row; a row past `expires_at`
 * (milliseconds since the epoch) opens nothing and is deleted by the next login.
 */
export class ConsoleSessions1765950000000 extends tablesMigration(USER_SESSIONS) {
  name = 'ConsoleSessions1765950000000';

  override async up(q: QueryRunner): Promise<void> {
    await q.addColumn(
      'users',
      new TableColumn({
        name: 'login_password_hash',
        type: 'varchar',
        length: '255',
        isNullable: true,
      }),
    );
    await super.up(q);
  }

  override async down(q: QueryRunner): Promise<void> {
    await super.down(q);
    await q.dropColumn('users', 'login_password_hash');
  }
}
