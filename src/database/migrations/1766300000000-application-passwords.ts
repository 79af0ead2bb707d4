import type { TableOptions } from 'typeorm';
import { index, tablesMigration } from './schema-steps.js';

const APPLICATION_PASSWORDS: TableOptions = {
  name: 'application_passwords',
  columns: [
    { name: 'uuid', type: 'varchar', length: '36', isPrimary: true },
    { name: 'user_id', type: 'integer' },
    { name: 'name', type: 'varchar', length: '200' },
    { name: 'password_hash', type: 'varchar', length: '64' },
    { name: 'created_at', type: 'bigint' },
  ],
  indices: [
    index('IDX_application_passwords_user', ['user_id']),
    index('IDX_application_passwords_hash', ['password_hash'], true),
  ],
};

/**
 * Application passwords that administrators create for a user through the API (CONTRACT §2
 * "Users"), as WordPress's `/wp/v2/users/{id}/application-passwords`: any number of named
 * passwords per user beside the one the CLI sets (`users.password_hash`), each revocable alone.
 * They are generated, never chosen (142 bits of randomness), so the table keeps their SHA-256 as
 * WordPress 6.8 keeps a fast hash of them: one indexed look-up checks one, without scrypt. Times
 * are milliseconds since the epoch.
 */
export class ApplicationPasswords1766300000000 extends tablesMigration(APPLICATION_PASSWORDS) {
  name = 'ApplicationPasswords1766300000000';
}
