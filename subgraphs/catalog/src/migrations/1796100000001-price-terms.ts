import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A listing's lowest price as a term too (`p:<digits>:<two leading digits>`, domain/publication.ts),
 * so its per-store counts tell how many listings surely match a price range without visiting them.
 * Existing listings and their counts gain it here.
 */
export const PRICE_TERM_FUNCTION = `
  CREATE OR REPLACE FUNCTION catalog.price_term(amount bigint) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT 'p:' || length(amount::text) || ':' || left(amount::text, 2) $$`;

export class Catalog1796100000001 implements MigrationInterface {
  name = 'Catalog1796100000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(PRICE_TERM_FUNCTION);
    await q.query(`
      WITH changed AS (
        UPDATE catalog.publication
        SET terms = ARRAY(SELECT DISTINCT t FROM unnest(terms || catalog.price_term(price_min)) t ORDER BY t)
        WHERE price_min IS NOT NULL AND NOT terms @> ARRAY[catalog.price_term(price_min)]
        RETURNING store_id, status, tenant_id, catalog.price_term(price_min) AS term)
      INSERT INTO catalog.listing_count (store_id, status, term, tenant_id, published)
      SELECT store_id, status, term, tenant_id, count(*) FROM changed GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3
      ON CONFLICT (store_id, status, term) DO UPDATE SET published = catalog.listing_count.published + excluded.published`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`UPDATE catalog.publication SET terms = ARRAY(SELECT t FROM unnest(terms) t WHERE t NOT LIKE 'p:%' ORDER BY t) WHERE price_min IS NOT NULL`);
    await q.query(`DELETE FROM catalog.listing_count WHERE term LIKE 'p:%'`);
    await q.query(`DROP FUNCTION catalog.price_term(bigint)`);
  }
}
