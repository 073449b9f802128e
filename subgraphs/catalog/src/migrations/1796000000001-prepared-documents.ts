import type { MigrationInterface, QueryRunner } from 'typeorm';
import { renderDocuments } from '../domain/product-document';
import { refreshListings } from '../domain/publication';
import { PRICE_TERM_FUNCTION } from './1796100000001-price-terms';

/**
 * The storefront read at scale: products' documents rendered ahead of time (full and feed, the text
 * read.products sends), each tenant's catalog version (the ETag of its pages), listings with their
 * filter terms (GIN) and SKU amounts (GiST), and counts per store, status and term in place of the
 * per-store counts. Existing products and listings are rendered and refreshed here.
 */
export class Catalog1796000000001 implements MigrationInterface {
  name = 'Catalog1796000000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE catalog.product_document (
        product_id text PRIMARY KEY REFERENCES catalog.product (id),
        tenant_id text NOT NULL,
        full_json text NOT NULL,
        feed_json text NOT NULL
      )`);
    await q.query(`CREATE TABLE catalog.catalog_version (tenant_id text PRIMARY KEY, version bigint NOT NULL)`);
    // One spelling of a term on both sides (listings written, filters asked): the name JSON-quoted, so no name can pass for another.
    await q.query(`
      CREATE FUNCTION catalog.listing_term(kind text, name text, value text) RETURNS text
      LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT kind || ':' || to_jsonb(name)::text || '=' || value $$`);
    // The listings refreshed below are spelled by today's domain/publication.ts, which also writes
    // price terms (migration 1796100000001, which then finds them there).
    await q.query(PRICE_TERM_FUNCTION);
    await q.query(`ALTER TABLE catalog.publication ADD COLUMN terms text[] NOT NULL DEFAULT '{}', ADD COLUMN amounts int8multirange NOT NULL DEFAULT '{}'`);
    await q.query(`CREATE INDEX publication_terms ON catalog.publication USING gin (terms)`);
    await q.query(`CREATE INDEX publication_amounts ON catalog.publication USING gist (amounts)`);
    await q.query(`
      CREATE TABLE catalog.listing_count (
        store_id text NOT NULL,
        status text NOT NULL,
        term text NOT NULL,
        tenant_id text NOT NULL,
        published integer NOT NULL,
        PRIMARY KEY (store_id, status, term)
      )`);
    await q.query(
      `INSERT INTO catalog.listing_count (store_id, status, term, tenant_id, published) SELECT store_id, status, '', tenant_id, published FROM catalog.store_listing_count`,
    );
    await q.query(`DROP TABLE catalog.store_listing_count`);
    // What exists already, tenant by tenant, a slice at a time.
    const tenants = (await q.query(`SELECT DISTINCT tenant_id FROM catalog.product`)) as { tenant_id: string }[];
    for (const { tenant_id } of tenants) {
      const ids = ((await q.query(`SELECT id FROM catalog.product WHERE tenant_id = $1 ORDER BY id`, [tenant_id])) as { id: string }[]).map((r) => r.id);
      for (let from = 0; from < ids.length; from += 5000) {
        const slice = ids.slice(from, from + 5000);
        await renderDocuments(q.manager, slice);
        await refreshListings(q.manager, slice, tenant_id);
      }
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE catalog.store_listing_count (
        store_id text NOT NULL, status text NOT NULL, tenant_id text NOT NULL, published integer NOT NULL DEFAULT 0, PRIMARY KEY (store_id, status))`);
    await q.query(`INSERT INTO catalog.store_listing_count SELECT store_id, status, tenant_id, published FROM catalog.listing_count WHERE term = ''`);
    await q.query(`DROP TABLE catalog.listing_count, catalog.product_document, catalog.catalog_version`);
    await q.query(`ALTER TABLE catalog.publication DROP COLUMN terms, DROP COLUMN amounts`);
    await q.query(`DROP FUNCTION catalog.listing_term(text, text, text)`);
    await q.query(`DROP FUNCTION IF EXISTS catalog.price_term(bigint)`);
  }
}
