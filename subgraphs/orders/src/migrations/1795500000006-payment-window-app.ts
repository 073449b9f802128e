import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A payment app's window overrides by app: payment.window.set counts them against their limit
 * (domain/order-limits.ts), and uninstalling or deleting an app finds them, without a scan.
 */
export class PaymentWindowApp1795500000006 implements MigrationInterface {
  name = 'PaymentWindowApp1795500000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX payment_window_app ON orders.payment_window (app_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX orders.payment_window_app`);
  }
}
