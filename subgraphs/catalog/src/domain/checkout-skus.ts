import type { CatalogSkus, SkuSnapshot } from '@backoffice/contracts';
import { sqlOf } from '@backoffice/platform';
import type { DataSource } from 'typeorm';

/** The catalog's own answer, from its tables (in process, or behind its internal endpoint). */
export function catalogSkus(dataSource: DataSource): CatalogSkus {
  return {
    async skus(tenantId, skuIds, storeId) {
      if (!skuIds.length) return [];
      return await sqlOf(dataSource).rows<SkuSnapshot>(
        `SELECT s.id AS sku_id, s.product_id, s.code,
                CASE WHEN s.name IS NULL OR s.name = '' THEN p.title ELSE p.title || ' – ' || s.name END AS title,
                coalesce(s.promotional_amount, s.amount)::float8 AS unit_amount, s.currency,
                (s.status = 'active' AND p.status = 'active') AS active,
                EXISTS (SELECT 1 FROM catalog.publication pub WHERE pub.product_id = p.id AND pub.store_id = $3) AS published,
                s.weight_grams::float8 AS weight_grams, s.length_cm::float8 AS length_cm, s.width_cm::float8 AS width_cm, s.height_cm::float8 AS height_cm
         FROM catalog.sku s JOIN catalog.product p ON p.id = s.product_id
         WHERE s.id = ANY($1::text[]) AND s.tenant_id = $2`,
        [skuIds, tenantId, storeId ?? null],
      );
    },
  };
}
