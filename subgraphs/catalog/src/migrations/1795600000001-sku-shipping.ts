import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A SKU's shipping attributes: its weight in grams and its length, width and height in centimetres,
 * each a positive integer or null (unknown). Orders ask for them at checkout and keep a copy.
 */
export class Catalog1795600000001 implements MigrationInterface {
  name = 'Catalog1795600000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE catalog.sku
        ADD COLUMN weight_grams bigint CHECK (weight_grams > 0),
        ADD COLUMN length_cm bigint CHECK (length_cm > 0),
        ADD COLUMN width_cm bigint CHECK (width_cm > 0),
        ADD COLUMN height_cm bigint CHECK (height_cm > 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE catalog.sku DROP COLUMN weight_grams, DROP COLUMN length_cm, DROP COLUMN width_cm, DROP COLUMN height_cm`);
  }
}
