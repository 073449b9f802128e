import { t, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';

/*
 * The per-store listing copy (`publication`: one row per product and store it is published to, with
 * what the public read sorts and filters on) and its per-store counts (`listing_count`) are written
 * here and nowhere else: publishing, unpublishing, and refreshing after products changed.
 *
 * A listing carries its product's filter terms (`terms`, GIN-indexed) and its SKUs' amounts
 * (`amounts`, a multirange, GiST-indexed):
 *   c:<path>                  the product is in that category or below it (one term per ancestor)
 *   o:"<option>"="<value>"    some SKU has that option value
 *   f:"<field>"=<json>        a scalar custom field (numbers without trailing zeros)
 *   p:<digits>:<leading two>  its lowest price, by magnitude and two leading digits (4:20 is 2000..2099)
 * `listing_count` counts listings per store, status and term (term '' counts them all), so a page
 * filtered by one term knows its exact total without counting rows.
 */

/** Input and result of catalog.product.publish and catalog.product.unpublish. */
export const publicationInput = t.object({ product_id: t.id(), store_id: t.id('the store id or its handle') });
export const publicationResult = t.object({ product_id: t.string(), store_id: t.string(), published: t.boolean() });

/** What a listing copies of its products `$1` (text[]): sort keys, filter terms and SKU amounts. */
const LISTING_SOURCE = `
  SELECT p.id AS product_id, p.tenant_id, p.status, p.title, p.price_min, p.price_max, p.created_at,
    ARRAY(SELECT DISTINCT term FROM (
        SELECT 'c:' || subpath(c.path, 0, n)::text AS term
        FROM catalog.product_category pc JOIN catalog.category c ON c.id = pc.category_id CROSS JOIN generate_series(1, nlevel(c.path)) n
        WHERE pc.product_id = p.id
        UNION ALL
        SELECT catalog.listing_term('o', e.key, to_jsonb(e.value)::text) FROM catalog.sku s CROSS JOIN jsonb_each_text(s.option_values) e WHERE s.product_id = p.id
        UNION ALL
        SELECT catalog.listing_term('f', f.key, CASE jsonb_typeof(f.value) WHEN 'number' THEN trim_scale(f.value::numeric)::text ELSE f.value::text END)
        FROM jsonb_each(p.custom_fields) f WHERE jsonb_typeof(f.value) IN ('string', 'number', 'boolean')
        UNION ALL
        SELECT catalog.price_term(p.price_min) WHERE p.price_min IS NOT NULL
      ) x ORDER BY term) AS terms,
    coalesce((SELECT range_agg(int8range(s.amount, s.amount, '[]')) FROM catalog.sku s WHERE s.product_id = p.id), '{}') AS amounts
  FROM catalog.product p WHERE p.id = ANY($1::text[])`;

/**
 * Applies the listings that went (`gone`) and came (`came`), each `(store_id, status, terms)`, to the
 * counts; `$2` is the tenant. Ends the statement: its caller's CTEs come before.
 */
const APPLY_COUNTS = `
  counted AS (
    SELECT store_id, status, term, sum(d)::int AS d FROM (
      SELECT store_id, status, unnest(terms || ''::text) AS term, -1 AS d FROM gone
      UNION ALL SELECT store_id, status, unnest(terms || ''::text), 1 FROM came) x
    GROUP BY 1, 2, 3 HAVING sum(d) <> 0),
  applied AS (
    INSERT INTO catalog.listing_count (store_id, status, term, tenant_id, published)
    SELECT store_id, status, term, $2, d FROM counted
    -- One order for every writer: two commands (or seed batches) touching the same counts then
    -- wait for each other instead of deadlocking.
    ORDER BY store_id, status, term
    ON CONFLICT (store_id, status, term) DO UPDATE SET published = catalog.listing_count.published + excluded.published
    RETURNING 1)`;

const NOTHING = `SELECT NULL::text AS store_id, NULL::text AS status, NULL::text[] AS terms WHERE false`;

/** Brings the listings of products `$1` in line with them (status, title, prices, terms, amounts) and the counts with the listings. */
const REFRESH = `
  WITH source AS (${LISTING_SOURCE}),
  gone AS (SELECT store_id, status, terms FROM catalog.publication WHERE product_id = ANY($1::text[])),
  came AS (
    UPDATE catalog.publication pub
    SET status = s.status, title = s.title, price_min = s.price_min, price_max = s.price_max, terms = s.terms, amounts = s.amounts
    FROM source s WHERE pub.product_id = s.product_id
    RETURNING pub.store_id, pub.status, pub.terms),
  ${APPLY_COUNTS}
  SELECT count(*)::int AS n FROM came`;

/** Lists products `$1` in stores `$3`; answers how many listings are new. */
const PUBLISH = `
  WITH source AS (${LISTING_SOURCE}),
  came AS (
    INSERT INTO catalog.publication (store_id, product_id, tenant_id, status, title, price_min, price_max, product_created_at, terms, amounts)
    SELECT st, s.product_id, s.tenant_id, s.status, s.title, s.price_min, s.price_max, s.created_at, s.terms, s.amounts
    FROM source s CROSS JOIN unnest($3::text[]) AS st WHERE s.tenant_id = $2
    ON CONFLICT (store_id, product_id) DO NOTHING
    RETURNING store_id, status, terms),
  gone AS (${NOTHING}),
  ${APPLY_COUNTS}
  SELECT count(*)::int AS n FROM came`;

/** Takes products `$1` out of stores `$3`; answers how many listings went. */
const UNPUBLISH = `
  WITH gone AS (
    DELETE FROM catalog.publication WHERE product_id = ANY($1::text[]) AND tenant_id = $2 AND store_id = ANY($3::text[])
    RETURNING store_id, status, terms),
  came AS (${NOTHING}),
  ${APPLY_COUNTS}
  SELECT count(*)::int AS n FROM gone`;

/**
 * The price terms (`catalog.price_term`) of every bucket lying wholly inside [min, max]: a listing
 * whose lowest price has one of them surely has a SKU in range. Their counts add up without overlap
 * (one lowest price per listing), a lower bound of the matches.
 */
export function priceTermsWithin(min: number, max: number): string[] {
  const terms: string[] = [];
  for (let digits = String(min).length; digits <= String(max).length; digits++) {
    if (digits === 1) {
      for (let amount = min; amount <= Math.min(max, 9); amount++) terms.push(`p:1:${amount}`);
      continue;
    }
    const unit = 10 ** (digits - 2);
    for (let lead = 10; lead <= 99; lead++) {
      if (lead * unit >= min && (lead + 1) * unit - 1 <= max) terms.push(`p:${digits}:${lead}`);
    }
  }
  return terms;
}

const count = async (db: EntityManager, sql: string, params: unknown[]) => (await sqlOf(db).rows<{ n: number }>(sql, params))[0].n;

/** After products changed (their fields, SKUs, options, categories or custom fields): their listings and counts follow. */
export async function refreshListings(db: EntityManager, productIds: readonly string[], tenantId: string): Promise<void> {
  await count(db, REFRESH, [productIds, tenantId]);
}

/** Lists products in stores; answers how many listings are new (none when all were listed already). */
export function publish(db: EntityManager, tenantId: string, storeIds: readonly string[], productIds: readonly string[]): Promise<number> {
  return count(db, PUBLISH, [productIds, tenantId, storeIds]);
}

/** Takes products out of stores; answers how many listings went. */
export function unpublish(db: EntityManager, tenantId: string, storeIds: readonly string[], productIds: readonly string[]): Promise<number> {
  return count(db, UNPUBLISH, [productIds, tenantId, storeIds]);
}
