import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalog's tables. Every row carries its tenant. Prices are integers in minor units.
 * `product.price_min`/`price_max` mirror the product's SKU amounts so price filters and sorts stay
 * on one indexed table.
 */
export class Catalog1763800000010 implements MigrationInterface {
  name = 'Catalog1763800000010';

  async up(q: QueryRunner): Promise<void> {
    // ltree is database-wide; categories are paths such as apparel.shoes.running.
    await q.query(`CREATE EXTENSION IF NOT EXISTS ltree`);
    await q.query(`
      CREATE TABLE catalog.brand (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, name)
      )`);
    await q.query(`
      CREATE TABLE catalog.product (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        title text NOT NULL,
        handle text NOT NULL,
        description text,
        status text NOT NULL DEFAULT 'draft' CHECK (status IN ('draft', 'active', 'archived')),
        metadata jsonb NOT NULL DEFAULT '{}',
        custom_fields jsonb NOT NULL DEFAULT '{}',
        rich_content jsonb,
        brand_id text REFERENCES catalog.brand (id),
        price_min bigint,
        price_max bigint,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, handle)
      )`);
    await q.query(`CREATE INDEX product_tenant_created ON catalog.product (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX product_custom_fields ON catalog.product USING gin (custom_fields jsonb_path_ops)`);
    await q.query(`
      CREATE TABLE catalog.category (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        path ltree NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, path)
      )`);
    await q.query(`CREATE INDEX category_path ON catalog.category USING gist (path)`);
    await q.query(`
      CREATE TABLE catalog.product_category (
        product_id text NOT NULL REFERENCES catalog.product (id),
        category_id text NOT NULL REFERENCES catalog.category (id),
        tenant_id text NOT NULL,
        is_primary boolean NOT NULL DEFAULT false,
        PRIMARY KEY (product_id, category_id)
      )`);
    await q.query(`CREATE INDEX product_category_category ON catalog.product_category (category_id, product_id)`);
    await q.query(`CREATE UNIQUE INDEX product_category_one_primary ON catalog.product_category (product_id) WHERE is_primary`);
    await q.query(`
      CREATE TABLE catalog.collection (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        handle text NOT NULL,
        title text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, handle)
      )`);
    await q.query(`
      CREATE TABLE catalog.collection_product (
        collection_id text NOT NULL REFERENCES catalog.collection (id),
        product_id text NOT NULL REFERENCES catalog.product (id),
        tenant_id text NOT NULL,
        position integer NOT NULL DEFAULT 0,
        PRIMARY KEY (collection_id, product_id)
      )`);
    await q.query(`CREATE INDEX collection_product_product ON catalog.collection_product (product_id)`);
    await q.query(`
      CREATE TABLE catalog.option (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        product_id text NOT NULL REFERENCES catalog.product (id),
        name text NOT NULL,
        "values" text[] NOT NULL,
        default_value text NOT NULL,
        position integer NOT NULL DEFAULT 0,
        UNIQUE (product_id, name)
      )`);
    await q.query(`
      CREATE TABLE catalog.sku (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        product_id text NOT NULL REFERENCES catalog.product (id),
        code text NOT NULL,
        name text,
        ean text,
        amount bigint NOT NULL CHECK (amount >= 0),
        compare_at_amount bigint CHECK (compare_at_amount >= 0),
        promotional_amount bigint CHECK (promotional_amount >= 0),
        currency char(3) NOT NULL,
        is_default boolean NOT NULL DEFAULT false,
        status text NOT NULL DEFAULT 'active',
        metadata jsonb NOT NULL DEFAULT '{}',
        ref text,
        option_values jsonb NOT NULL DEFAULT '{}',
        position integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, code)
      )`);
    await q.query(`CREATE INDEX sku_product ON catalog.sku (product_id, position, id)`);
    await q.query(`CREATE INDEX sku_option_values ON catalog.sku USING gin (option_values jsonb_path_ops)`);
    await q.query(`
      CREATE TABLE catalog.media (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        product_id text NOT NULL REFERENCES catalog.product (id),
        owner_type text NOT NULL CHECK (owner_type IN ('product', 'sku')),
        owner_id text NOT NULL,
        provider_key text NOT NULL,
        kind text NOT NULL CHECK (kind IN ('image', 'document', 'video_external')),
        url text,
        alt text,
        position integer NOT NULL DEFAULT 0,
        role text,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (owner_type, owner_id, provider_key)
      )`);
    await q.query(`CREATE INDEX media_product ON catalog.media (product_id, owner_type, position, id)`);
    // A product's listing in a store, with copies of what listings are sorted and filtered by, so a
    // page is read in index order whatever the catalog's size.
    await q.query(`
      CREATE TABLE catalog.publication (
        store_id text NOT NULL,
        product_id text NOT NULL REFERENCES catalog.product (id),
        tenant_id text NOT NULL,
        status text NOT NULL,
        title text NOT NULL,
        price_min bigint,
        price_max bigint,
        product_created_at timestamptz NOT NULL,
        published_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (store_id, product_id)
      )`);
    await q.query(`CREATE INDEX publication_product ON catalog.publication (product_id)`);
    await q.query(`CREATE INDEX publication_newest ON catalog.publication (store_id, product_created_at DESC, product_id DESC)`);
    await q.query(`CREATE INDEX publication_price ON catalog.publication (store_id, price_min, product_id)`);
    await q.query(`CREATE INDEX publication_title ON catalog.publication (store_id, title, product_id)`);
    await q.query(`CREATE INDEX publication_status ON catalog.publication (store_id, status, product_created_at DESC, product_id DESC)`);
    // Published counts per store and status: the total of an unfiltered page without counting rows.
    await q.query(`
      CREATE TABLE catalog.store_listing_count (
        store_id text NOT NULL,
        status text NOT NULL,
        tenant_id text NOT NULL,
        published integer NOT NULL DEFAULT 0,
        PRIMARY KEY (store_id, status)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE catalog.store_listing_count, catalog.publication, catalog.media, catalog.sku, catalog.option, catalog.collection_product,
      catalog.collection, catalog.product_category, catalog.category, catalog.product, catalog.brand`);
  }
}
