import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Failed code logins, per operator: counted across successive codes since the last login, they make
 * the operator's code logins wait (1 minute, doubling, at most an hour); the read of operators shows them.
 */
export class LoginFailures1795900000002 implements MigrationInterface {
  name = 'LoginFailures1795900000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE identity.admin_user
        ADD COLUMN failed_logins integer NOT NULL DEFAULT 0,
        ADD COLUMN last_failed_login_at timestamptz,
        ADD COLUMN login_locked_until timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.admin_user DROP COLUMN failed_logins, DROP COLUMN last_failed_login_at, DROP COLUMN login_locked_until`);
  }
}
