import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes of the public products read beyond those of the catalog's first migration: every sort in
 * index order with and without the status filter, and the SKU price filter.
 */
export class Catalog1763800000011 implements MigrationInterface {
  name = 'Catalog1763800000011';

  async up(q: QueryRunner): Promise<void> {
    // price_desc without a status filter (price_asc, title_asc and newest have theirs already).
    await q.query(`CREATE INDEX publication_price_desc ON catalog.publication (store_id, price_min DESC NULLS LAST, product_id DESC)`);
    // Every sort under a status filter (newest has publication_status).
    await q.query(`CREATE INDEX publication_status_price ON catalog.publication (store_id, status, price_min, product_id)`);
    await q.query(`CREATE INDEX publication_status_price_desc ON catalog.publication (store_id, status, price_min DESC NULLS LAST, product_id DESC)`);
    await q.query(`CREATE INDEX publication_status_title ON catalog.publication (store_id, status, title, product_id)`);
    // The SKU filter (options, price range) as a set when it is selective.
    await q.query(`CREATE INDEX sku_tenant_amount ON catalog.sku (tenant_id, amount)`);
    // SKU media by their SKU (product media use media_product).
    await q.query(`CREATE INDEX media_owner ON catalog.media (owner_id, position, id) WHERE owner_type = 'sku'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX catalog.publication_price_desc, catalog.publication_status_price, catalog.publication_status_price_desc,
      catalog.publication_status_title, catalog.sku_tenant_amount, catalog.media_owner`);
  }
}
