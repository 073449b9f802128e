import { internalCaller } from '@backoffice/platform';

// What the catalog serves about its SKUs: the snapshot checkout and the shipping quote take.

/**
 * A SKU's shipping attributes: weight in grams, length, width and height in centimetres. Each is a
 * positive safe integer, or null when unknown (the default). Orders snapshot them at checkout and
 * the shipping quote builds its parcel from them.
 */
export const SKU_SHIPPING_FIELDS = ['weight_grams', 'length_cm', 'width_cm', 'height_cm'] as const;
export type SkuShippingField = (typeof SKU_SHIPPING_FIELDS)[number];

export type SkuShipping = Record<SkuShippingField, number | null>;

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

/** The catalog in another process, through its internal endpoint (guarded by the shared secret). */
export function remoteCatalogSkus(catalogUrl: string, secret: string): CatalogSkus {
  const post = internalCaller('catalog', catalogUrl, secret);
  return {
    skus: async (tenantId, skuIds, storeId) => (await post<{ skus: SkuSnapshot[] }>('skus', { tenant_id: tenantId, sku_ids: skuIds, store_id: storeId })).skus,
  };
}
