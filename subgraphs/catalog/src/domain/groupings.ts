import { t } from '@backoffice/platform';

/**
 * Categories, brands and collections as entities (what the admin lists and the links of a product
 * serve), with the SQL columns that build each (aliases `c`, `b`, `col`).
 */

const iso = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

export const category = t.entity(
  'Category',
  {
    category_id: t.string(),
    path: t.string({ description: 'ltree path: its labels joined by dots, the parent’s path followed by one label' }),
    name: t.string(),
    created_at: t.timestamp(),
  },
  'category_id',
);
export interface CategoryNode {
  category_id: string;
  path: string;
  name: string;
  created_at: string;
}
export const CATEGORY_COLUMNS = `c.id AS category_id, c.path::text AS path, c.name, ${iso('c.created_at')} AS created_at`;

export const brand = t.entity('Brand', { brand_id: t.string(), name: t.string(), created_at: t.timestamp() }, 'brand_id');
export interface BrandNode {
  brand_id: string;
  name: string;
  created_at: string;
}
export const BRAND_COLUMNS = `b.id AS brand_id, b.name, ${iso('b.created_at')} AS created_at`;

export const collection = t.entity(
  'Collection',
  {
    collection_id: t.string(),
    handle: t.string(),
    title: t.string(),
    product_count: t.integer({ minimum: 0, description: 'its products, all of them (`products` lists the first 100)' }),
    created_at: t.timestamp(),
  },
  'collection_id',
);
export interface CollectionNode {
  collection_id: string;
  handle: string;
  title: string;
  product_count: number;
  created_at: string;
}
export const COLLECTION_COLUMNS = `col.id AS collection_id, col.handle, col.title,
  (SELECT count(*)::int FROM catalog.collection_product cp WHERE cp.collection_id = col.id) AS product_count, ${iso('col.created_at')} AS created_at`;
