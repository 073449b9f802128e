import { internalCaller, sqlOf } from '@backoffice/platform';
import type { DataSource } from 'typeorm';
import type { SkuShipping } from './sku-shipping';

/**
 * A SKU as checkout needs it now: its price (the promotional amount when set), currency, titles and
 * shipping attributes (`weight_grams`, `length_cm`, `width_cm`, `height_cm`: positive integers, or
 * null when unknown).
 */
export interface SkuSnapshot extends SkuShipping {
  sku_id: string;
  product_id: string;
  code: string;
  /** The product's title, with the SKU's name when it has one. */
  title: string;
  /** What it sells for: the promotional amount when there is one, else the amount. */
  unit_amount: number;
  currency: string;
  /** The SKU and its product are active. */
  active: boolean;
  /** Its product is published to the store asked about (false when no store was named). */
  published: boolean;
}

/** What the catalog tells other subgraphs about its SKUs: asked, never read from its tables. */
export interface CatalogSkus {
  /** The tenant's SKUs among `sku_ids` (unknown ones are absent), seen from `store_id` when given. */
  skus(tenantId: string, skuIds: readonly string[], storeId?: string): Promise<SkuSnapshot[]>;
}

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

/** The catalog in another process, through its internal endpoint (guarded by the shared secret). */
export function remoteCatalogSkus(catalogUrl: string, secret: string): CatalogSkus {
  const post = internalCaller('catalog', catalogUrl, secret);
  return {
    skus: async (tenantId, skuIds, storeId) => (await post<{ skus: SkuSnapshot[] }>('skus', { tenant_id: tenantId, sku_ids: skuIds, store_id: storeId })).skus,
  };
}
