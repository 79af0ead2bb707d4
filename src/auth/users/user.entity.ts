import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';
import type { Role } from '../../common/roles.js';
import { DateTimeColumn } from '../../database/columns.js';

@Entity('users')
export class UserEntity {
  @PrimaryGeneratedColumn({ type: 'integer' })
  id!: number;

  @Index('IDX_users_login', { unique: true })
  @Column({ type: 'varchar', length: 60 })
  login!: string;

  @Column({ type: 'varchar', length: 100, default: '' })
  email!: string;

  @Column({ name: 'display_name', type: 'varchar', length: 250, default: '' })
  displayName!: string;

  @Column({ type: 'varchar', length: 20 })
  role!: Role;

  @Column({ name: 'password_hash', type: 'varchar', length: 255 })
  passwordHash!: string;

  /** The console password's hash (CONTRACT §2); NULL: this user cannot log in to the console. */
  @Column({ name: 'login_password_hash', type: 'varchar', length: 255, nullable: true })
  loginPasswordHash!: string | null;

  @DateTimeColumn('created_at')
  createdAt!: string;
}
