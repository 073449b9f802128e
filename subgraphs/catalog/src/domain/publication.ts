import { conflict, t, type Actor } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import type { StoreDirectory } from '../stores';

/*
 * The per-store listing copy (`publication`: one row per product and store it is published to, with
 * what the public read sorts and filters on) and its per-store counts (`store_listing_count`) are
 * written here and nowhere else: publishing, unpublishing, and refreshing after a product changed.
 */

/** Input and result of catalog.product.publish and catalog.product.unpublish. */
export const publicationInput = t.object({ product_id: t.id(), store_id: t.id('the store id or its handle') });
export const publicationResult = t.object({ product_id: t.string(), store_id: t.string(), published: t.boolean() });

/** The store, which must be the caller's own; identity answers, the catalog keeps no copy. */
export async function ownStore(stores: StoreDirectory, actor: Actor, ref: string): Promise<string> {
  const store = await stores.resolve(ref);
  if (!store || store.tenant_id !== actor.tenant_id) throw conflict(`store ${ref} does not exist in this tenant`);
  return store.store_id;
}

/**
 * Brings a product's store listings in line with the product (status, title, prices) and keeps the
 * per-store published counts right when the status moved.
 */
const REFRESH_LISTINGS = `
  WITH product AS (SELECT id, status, title, price_min, price_max FROM catalog.product WHERE id = $1),
  before AS (SELECT store_id, status FROM catalog.publication WHERE product_id = $1),
  updated AS (
    UPDATE catalog.publication pub SET status = p.status, title = p.title, price_min = p.price_min, price_max = p.price_max
    FROM product p WHERE pub.product_id = p.id RETURNING pub.store_id, pub.status),
  moved AS (
    SELECT b.store_id, b.status AS old_status, u.status AS new_status FROM before b JOIN updated u USING (store_id)
    WHERE b.status <> u.status),
  decrement AS (
    UPDATE catalog.store_listing_count c SET published = published - 1
    FROM moved m WHERE c.store_id = m.store_id AND c.status = m.old_status)
  INSERT INTO catalog.store_listing_count (store_id, status, tenant_id, published)
  SELECT m.store_id, m.new_status, $2, 1 FROM moved m
  ON CONFLICT (store_id, status) DO UPDATE SET published = catalog.store_listing_count.published + 1`;

export async function refreshListings(db: EntityManager, productId: string, tenantId: string): Promise<void> {
  await db.query(REFRESH_LISTINGS, [productId, tenantId]);
}

/** Lists a product in a store; false when it was listed there already. */
export async function publishTo(db: EntityManager, storeId: string, productId: string, tenantId: string): Promise<boolean> {
  const inserted = (await db.query(
    `INSERT INTO catalog.publication (store_id, product_id, tenant_id, status, title, price_min, price_max, product_created_at)
     SELECT $1, id, tenant_id, status, title, price_min, price_max, created_at FROM catalog.product WHERE id = $2
     ON CONFLICT (store_id, product_id) DO NOTHING RETURNING status`,
    [storeId, productId],
  )) as { status: string }[];
  if (!inserted.length) return false;
  await db.query(
    `INSERT INTO catalog.store_listing_count (store_id, status, tenant_id, published) VALUES ($1, $2, $3, 1)
     ON CONFLICT (store_id, status) DO UPDATE SET published = catalog.store_listing_count.published + 1`,
    [storeId, inserted[0].status, tenantId],
  );
  return true;
}

/** Takes a product out of a store; false when it was not listed there. */
export async function unpublishFrom(db: EntityManager, storeId: string, productId: string): Promise<boolean> {
  // TypeORM answers a DELETE … RETURNING with [rows, affected].
  const [rows] = (await db.query(`DELETE FROM catalog.publication WHERE store_id = $1 AND product_id = $2 RETURNING status`, [storeId, productId])) as [{ status: string }[], number];
  if (!rows.length) return false;
  await db.query(`UPDATE catalog.store_listing_count SET published = published - 1 WHERE store_id = $1 AND status = $2`, [storeId, rows[0].status]);
  return true;
}
