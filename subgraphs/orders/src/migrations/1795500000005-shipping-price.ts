import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipping price (domain/shipping-rates.ts): what a method charges (null: nothing, as every method
 * had before), and the order's shipping line. Orders taken before have none (0), and their totals
 * already are items less discount, so the total's rule holds for every row and the database keeps it.
 */
export class ShippingPrice1795500000005 implements MigrationInterface {
  name = 'ShippingPrice1795500000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders.shipping_method ADD COLUMN rates jsonb`);
    await q.query(`
      ALTER TABLE orders."order"
        ADD COLUMN shipping_amount bigint NOT NULL DEFAULT 0 CONSTRAINT order_shipping_amount_check CHECK (shipping_amount >= 0),
        ADD CONSTRAINT order_total_amount_check CHECK (total_amount = subtotal_amount - discount_amount + shipping_amount)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders."order" DROP CONSTRAINT order_total_amount_check, DROP COLUMN shipping_amount`);
    await q.query(`ALTER TABLE orders.shipping_method DROP COLUMN rates`);
  }
}
