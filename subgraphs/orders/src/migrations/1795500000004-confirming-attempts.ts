import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Attempts being confirmed, indexed apart: expiry asks, for each batch of due orders, which of them
 * a confirmation holds, and nearly none are (a confirmation lasts seconds).
 */
export class ConfirmingAttempts1795500000004 implements MigrationInterface {
  name = 'ConfirmingAttempts1795500000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX payment_attempt_confirming ON orders.payment_attempt (order_id) WHERE status = 'confirming'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX orders.payment_attempt_confirming`);
  }
}
