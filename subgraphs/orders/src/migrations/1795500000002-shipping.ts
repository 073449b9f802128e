import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipping configuration: zones (inclusive ranges of normalized postal codes), methods (limits,
 * cubic divisor, transit days) and the zones each method serves (none: every zone of the tenant).
 * Order items keep the SKU's shipping attributes as the catalog gave them at checkout.
 * Rules in domain/shipping.ts.
 */
export class Shipping1795500000002 implements MigrationInterface {
  name = 'Shipping1795500000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE orders.order_item
        ADD COLUMN weight_grams bigint,
        ADD COLUMN length_cm bigint,
        ADD COLUMN width_cm bigint,
        ADD COLUMN height_cm bigint`);
    await q.query(`
      CREATE TABLE orders.shipping_zone (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        -- Normalized (upper case, no spaces or hyphens), of equal length, compared byte by byte.
        postal_code_from text COLLATE "C" NOT NULL CHECK (postal_code_from ~ '^[A-Z0-9]+$'),
        postal_code_to text COLLATE "C" NOT NULL CHECK (postal_code_to ~ '^[A-Z0-9]+$'),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        CHECK (length(postal_code_from) = length(postal_code_to) AND postal_code_from <= postal_code_to)
      )`);
    await q.query(`CREATE INDEX shipping_zone_tenant ON orders.shipping_zone (tenant_id, created_at, id)`);
    await q.query(`
      CREATE TABLE orders.shipping_method (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('delivery', 'pickup')),
        active boolean NOT NULL,
        carrier_id text,
        dimensional_divisor bigint NOT NULL CHECK (dimensional_divisor > 0),
        max_weight_grams bigint CHECK (max_weight_grams > 0),
        max_length_cm bigint CHECK (max_length_cm > 0),
        max_width_cm bigint CHECK (max_width_cm > 0),
        max_height_cm bigint CHECK (max_height_cm > 0),
        max_dimensions_sum_cm bigint CHECK (max_dimensions_sum_cm > 0),
        transit_days integer CHECK (transit_days BETWEEN 0 AND 365),
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX shipping_method_tenant ON orders.shipping_method (tenant_id, created_at, id)`);
    await q.query(`
      CREATE TABLE orders.shipping_method_zone (
        method_id text NOT NULL REFERENCES orders.shipping_method (id) ON DELETE CASCADE,
        zone_id text NOT NULL REFERENCES orders.shipping_zone (id),
        PRIMARY KEY (method_id, zone_id)
      )`);
    // The method an order was taken with (checked against its parcel and address at checkout).
    await q.query(`ALTER TABLE orders."order" ADD COLUMN shipping_method_id text REFERENCES orders.shipping_method (id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE orders."order" DROP COLUMN shipping_method_id`);
    await q.query(`DROP TABLE orders.shipping_method_zone, orders.shipping_method, orders.shipping_zone`);
    await q.query(`ALTER TABLE orders.order_item DROP COLUMN weight_grams, DROP COLUMN length_cm, DROP COLUMN width_cm, DROP COLUMN height_cm`);
  }
}
