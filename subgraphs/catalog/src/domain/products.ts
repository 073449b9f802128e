import { conflict, t, type Actor, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import type { Product } from '../entities';

export const HANDLE_PATTERN = '^[a-z0-9]+(-[a-z0-9]+)*$';
/** ltree labels: letters, digits, underscore (at most 255, PostgreSQL's limit); separated by dots. */
export const CATEGORY_PATH_PATTERN = '^[A-Za-z0-9_]{1,255}(\\.[A-Za-z0-9_]{1,255})*$';
export const PRODUCT_STATUSES = ['draft', 'active', 'archived'] as const;
/** A product's status: one GraphQL enum wherever it shows. */
export const productStatus = (options: { default?: (typeof PRODUCT_STATUSES)[number] } = {}) => t.enum(PRODUCT_STATUSES, { ...options, name: 'ProductStatus' });

export const handle = () => t.string({ minLength: 1, maxLength: 200, pattern: HANDLE_PATTERN });
/** Facetable custom fields: scalar values only. */
export const customFields = () => t.record({ maxProperties: 100, description: 'facetable custom fields (at most 100): string, number or boolean values' });

export type ProductRow = Pick<Product, 'id' | 'tenant_id' | 'status' | 'title'>;

/**
 * A product of the caller's tenant, locked for the rest of the command. One of another tenant is
 * indistinguishable from one that does not exist: both are a conflict with the tenant's catalog.
 */
export async function lockProduct(db: EntityManager, actor: Actor, productId: string): Promise<ProductRow> {
  const [product] = await sqlOf(db).rows<ProductRow>(`SELECT id, tenant_id, status, title FROM catalog.product WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [
    productId,
    actor.tenant_id,
  ]);
  if (!product) throw conflict(`product ${productId} does not exist in this tenant`, { reason: 'not_found', field: 'product_id' });
  return product;
}

/** Refuses a referenced id the tenant does not have. */
export async function assertOwned(db: EntityManager, actor: Actor, table: 'brand' | 'category' | 'collection', ids: string[]): Promise<void> {
  if (!ids.length) return;
  const rows = await sqlOf(db).rows<{ id: string }>(`SELECT id FROM catalog.${table} WHERE tenant_id = $1 AND id = ANY($2::text[])`, [actor.tenant_id, ids]);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw conflict(`${table} ${missing.join(', ')} does not exist in this tenant`, { reason: 'not_found' });
}

/** Recomputes a product's price range from its SKUs (after they changed in this transaction). */
export const REFRESH_PRICES = `
  UPDATE catalog.product p SET price_min = s.min, price_max = s.max, updated_at = now()
  FROM (SELECT min(amount) AS min, max(amount) AS max FROM catalog.sku WHERE product_id = $1) s WHERE p.id = $1`;
