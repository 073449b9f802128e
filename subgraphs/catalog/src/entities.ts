import { EntitySchema } from 'typeorm';

// The shape of every table of the catalog schema, declared once: the row types handlers name come from
// here, and test/schema-drift.test.ts holds the migrated database to these declarations (the
// migrations, not TypeORM, change the schema). Checks and constraints carry their database names.

const now = () => 'now()';

export interface Brand {
  id: string;
  tenant_id: string;
  name: string;
  created_at: Date;
}

export const BrandEntity = new EntitySchema<Brand>({
  name: 'Brand',
  tableName: 'brand',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    name: { type: 'text' },
    created_at: { type: 'timestamptz', default: now },
  },
  uniques: [{ name: 'brand_tenant_id_name_key', columns: ['tenant_id', 'name'] }],
});

export interface Product {
  id: string;
  tenant_id: string;
  title: string;
  handle: string;
  description: string | null;
  status: 'draft' | 'active' | 'archived';
  metadata: Record<string, unknown>;
  custom_fields: Record<string, unknown>;
  rich_content: Record<string, unknown> | null;
  brand_id: string | null;
  price_min: string | null;
  price_max: string | null;
  created_at: Date;
  updated_at: Date;
}

export const ProductEntity = new EntitySchema<Product>({
  name: 'Product',
  tableName: 'product',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    title: { type: 'text' },
    handle: { type: 'text' },
    description: { type: 'text', nullable: true },
    status: { type: 'text', default: 'draft' },
    metadata: { type: 'jsonb', default: () => `'{}'` },
    custom_fields: { type: 'jsonb', default: () => `'{}'` },
    rich_content: { type: 'jsonb', nullable: true },
    brand_id: { type: 'text', nullable: true },
    price_min: { type: 'bigint', nullable: true },
    price_max: { type: 'bigint', nullable: true },
    created_at: { type: 'timestamptz', default: now },
    updated_at: { type: 'timestamptz', default: now },
  },
  uniques: [{ name: 'product_tenant_id_handle_key', columns: ['tenant_id', 'handle'] }],
  checks: [{ name: 'product_status_check', expression: `(status = ANY (ARRAY['draft'::text, 'active'::text, 'archived'::text]))` }],
  indices: [
    // USING gin (custom_fields jsonb_path_ops): TypeORM cannot name the GIN method; the columns are checked.
    { name: 'product_custom_fields', columns: ['custom_fields'] },
    // USING btree (tenant_id, created_at DESC, id DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'product_tenant_created', columns: ['tenant_id', 'created_at', 'id'] },
  ],
  foreignKeys: [{ name: 'product_brand_id_fkey', target: 'Brand', columnNames: ['brand_id'], referencedColumnNames: ['id'] }],
});

export interface Category {
  id: string;
  tenant_id: string;
  path: string;
  name: string;
  created_at: Date;
}

export const CategoryEntity = new EntitySchema<Category>({
  name: 'Category',
  tableName: 'category',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    path: { type: 'ltree' },
    name: { type: 'text' },
    created_at: { type: 'timestamptz', default: now },
  },
  uniques: [{ name: 'category_tenant_id_path_key', columns: ['tenant_id', 'path'] }],
  indices: [{ name: 'category_path', columns: ['path'], spatial: true }],
});

export interface ProductCategory {
  product_id: string;
  category_id: string;
  tenant_id: string;
  is_primary: boolean;
}

export const ProductCategoryEntity = new EntitySchema<ProductCategory>({
  name: 'ProductCategory',
  tableName: 'product_category',
  columns: {
    product_id: { type: 'text', primary: true },
    category_id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    is_primary: { type: 'boolean', default: false },
  },
  indices: [
    { name: 'product_category_category', columns: ['category_id', 'product_id'] },
    { name: 'product_category_one_primary', columns: ['product_id'], unique: true, where: 'is_primary' },
  ],
  foreignKeys: [
    { name: 'product_category_category_id_fkey', target: 'Category', columnNames: ['category_id'], referencedColumnNames: ['id'] },
    { name: 'product_category_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] },
  ],
});

export interface Collection {
  id: string;
  tenant_id: string;
  handle: string;
  title: string;
  created_at: Date;
}

export const CollectionEntity = new EntitySchema<Collection>({
  name: 'Collection',
  tableName: 'collection',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    handle: { type: 'text' },
    title: { type: 'text' },
    created_at: { type: 'timestamptz', default: now },
  },
  uniques: [{ name: 'collection_tenant_id_handle_key', columns: ['tenant_id', 'handle'] }],
});

export interface CollectionProduct {
  collection_id: string;
  product_id: string;
  tenant_id: string;
  position: number;
}

export const CollectionProductEntity = new EntitySchema<CollectionProduct>({
  name: 'CollectionProduct',
  tableName: 'collection_product',
  columns: {
    collection_id: { type: 'text', primary: true },
    product_id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    position: { type: 'integer', default: 0 },
  },
  indices: [{ name: 'collection_product_product', columns: ['product_id'] }],
  foreignKeys: [
    { name: 'collection_product_collection_id_fkey', target: 'Collection', columnNames: ['collection_id'], referencedColumnNames: ['id'] },
    { name: 'collection_product_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] },
  ],
});

export interface Option {
  id: string;
  tenant_id: string;
  product_id: string;
  name: string;
  values: string[];
  default_value: string;
  position: number;
}

export const OptionEntity = new EntitySchema<Option>({
  name: 'Option',
  tableName: 'option',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    product_id: { type: 'text' },
    name: { type: 'text' },
    values: { type: 'text', array: true },
    default_value: { type: 'text' },
    position: { type: 'integer', default: 0 },
  },
  uniques: [{ name: 'option_product_id_name_key', columns: ['product_id', 'name'] }],
  foreignKeys: [{ name: 'option_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] }],
});

export interface Sku {
  id: string;
  tenant_id: string;
  product_id: string;
  code: string;
  name: string | null;
  ean: string | null;
  amount: string;
  compare_at_amount: string | null;
  promotional_amount: string | null;
  currency: string;
  is_default: boolean;
  status: string;
  metadata: Record<string, unknown>;
  ref: string | null;
  option_values: Record<string, string>;
  position: number;
  created_at: Date;
  weight_grams: string | null;
  length_cm: string | null;
  width_cm: string | null;
  height_cm: string | null;
}

export const SkuEntity = new EntitySchema<Sku>({
  name: 'Sku',
  tableName: 'sku',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    product_id: { type: 'text' },
    code: { type: 'text' },
    name: { type: 'text', nullable: true },
    ean: { type: 'text', nullable: true },
    amount: { type: 'bigint' },
    compare_at_amount: { type: 'bigint', nullable: true },
    promotional_amount: { type: 'bigint', nullable: true },
    currency: { type: 'char', length: 3 },
    is_default: { type: 'boolean', default: false },
    status: { type: 'text', default: 'active' },
    metadata: { type: 'jsonb', default: () => `'{}'` },
    ref: { type: 'text', nullable: true },
    option_values: { type: 'jsonb', default: () => `'{}'` },
    position: { type: 'integer', default: 0 },
    created_at: { type: 'timestamptz', default: now },
    weight_grams: { type: 'bigint', nullable: true },
    length_cm: { type: 'bigint', nullable: true },
    width_cm: { type: 'bigint', nullable: true },
    height_cm: { type: 'bigint', nullable: true },
  },
  uniques: [{ name: 'sku_tenant_id_code_key', columns: ['tenant_id', 'code'] }],
  checks: [
    { name: 'sku_amount_check', expression: '(amount >= 0)' },
    { name: 'sku_compare_at_amount_check', expression: '(compare_at_amount >= 0)' },
    { name: 'sku_height_cm_check', expression: '(height_cm > 0)' },
    { name: 'sku_length_cm_check', expression: '(length_cm > 0)' },
    { name: 'sku_promotional_amount_check', expression: '(promotional_amount >= 0)' },
    { name: 'sku_weight_grams_check', expression: '(weight_grams > 0)' },
    { name: 'sku_width_cm_check', expression: '(width_cm > 0)' },
  ],
  indices: [
    // USING gin (option_values jsonb_path_ops): TypeORM cannot name the GIN method; the columns are checked.
    { name: 'sku_option_values', columns: ['option_values'] },
    { name: 'sku_product', columns: ['product_id', 'position', 'id'] },
    { name: 'sku_tenant_amount', columns: ['tenant_id', 'amount'] },
  ],
  foreignKeys: [{ name: 'sku_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] }],
});

export interface Media {
  id: string;
  tenant_id: string;
  product_id: string;
  owner_type: 'product' | 'sku';
  owner_id: string;
  provider_key: string;
  kind: 'image' | 'document' | 'video_external';
  url: string | null;
  alt: string | null;
  position: number;
  role: string | null;
  created_at: Date;
}

export const MediaEntity = new EntitySchema<Media>({
  name: 'Media',
  tableName: 'media',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    product_id: { type: 'text' },
    owner_type: { type: 'text' },
    owner_id: { type: 'text' },
    provider_key: { type: 'text' },
    kind: { type: 'text' },
    url: { type: 'text', nullable: true },
    alt: { type: 'text', nullable: true },
    position: { type: 'integer', default: 0 },
    role: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: now },
  },
  uniques: [{ name: 'media_owner_type_owner_id_provider_key_key', columns: ['owner_type', 'owner_id', 'provider_key'] }],
  checks: [
    { name: 'media_kind_check', expression: `(kind = ANY (ARRAY['image'::text, 'document'::text, 'video_external'::text]))` },
    { name: 'media_owner_type_check', expression: `(owner_type = ANY (ARRAY['product'::text, 'sku'::text]))` },
  ],
  indices: [
    { name: 'media_owner', columns: ['owner_id', 'position', 'id'], where: `(owner_type = 'sku'::text)` },
    { name: 'media_product', columns: ['product_id', 'owner_type', 'position', 'id'] },
  ],
  foreignKeys: [{ name: 'media_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] }],
});

export interface Publication {
  store_id: string;
  product_id: string;
  tenant_id: string;
  status: string;
  title: string;
  price_min: string | null;
  price_max: string | null;
  product_created_at: Date;
  published_at: Date;
  terms: string[];
  amounts: string;
}

export const PublicationEntity = new EntitySchema<Publication>({
  name: 'Publication',
  tableName: 'publication',
  columns: {
    store_id: { type: 'text', primary: true },
    product_id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    status: { type: 'text' },
    title: { type: 'text' },
    price_min: { type: 'bigint', nullable: true },
    price_max: { type: 'bigint', nullable: true },
    product_created_at: { type: 'timestamptz' },
    published_at: { type: 'timestamptz', default: now },
    terms: { type: 'text', array: true, default: () => `'{}'` },
    amounts: { type: 'int8multirange', default: () => `'{}'` },
  },
  indices: [
    { name: 'publication_amounts', columns: ['amounts'], spatial: true },
    // USING btree (store_id, product_created_at DESC, product_id DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'publication_newest', columns: ['store_id', 'product_created_at', 'product_id'] },
    { name: 'publication_price', columns: ['store_id', 'price_min', 'product_id'] },
    // USING btree (store_id, price_min DESC NULLS LAST, product_id DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'publication_price_desc', columns: ['store_id', 'price_min', 'product_id'] },
    { name: 'publication_product', columns: ['product_id'] },
    // USING btree (store_id, status, product_created_at DESC, product_id DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'publication_status', columns: ['store_id', 'status', 'product_created_at', 'product_id'] },
    { name: 'publication_status_price', columns: ['store_id', 'status', 'price_min', 'product_id'] },
    // USING btree (store_id, status, price_min DESC NULLS LAST, product_id DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'publication_status_price_desc', columns: ['store_id', 'status', 'price_min', 'product_id'] },
    { name: 'publication_status_title', columns: ['store_id', 'status', 'title', 'product_id'] },
    // USING gin (terms): TypeORM cannot name the GIN method; the columns are checked.
    { name: 'publication_terms', columns: ['terms'] },
    { name: 'publication_title', columns: ['store_id', 'title', 'product_id'] },
  ],
  foreignKeys: [{ name: 'publication_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] }],
});

export interface ProductDocument {
  product_id: string;
  tenant_id: string;
  full_json: string;
  feed_json: string;
}

export const ProductDocumentEntity = new EntitySchema<ProductDocument>({
  name: 'ProductDocument',
  tableName: 'product_document',
  columns: {
    product_id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    full_json: { type: 'text' },
    feed_json: { type: 'text' },
  },
  foreignKeys: [{ name: 'product_document_product_id_fkey', target: 'Product', columnNames: ['product_id'], referencedColumnNames: ['id'] }],
});

export interface CatalogVersion {
  tenant_id: string;
  version: string;
}

export const CatalogVersionEntity = new EntitySchema<CatalogVersion>({
  name: 'CatalogVersion',
  tableName: 'catalog_version',
  columns: {
    tenant_id: { type: 'text', primary: true },
    version: { type: 'bigint' },
  },
});

export interface ListingCount {
  store_id: string;
  status: string;
  term: string;
  tenant_id: string;
  published: number;
}

export const ListingCountEntity = new EntitySchema<ListingCount>({
  name: 'ListingCount',
  tableName: 'listing_count',
  columns: {
    store_id: { type: 'text', primary: true },
    status: { type: 'text', primary: true },
    term: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    published: { type: 'integer' },
  },
});

export const catalogEntities = [
  BrandEntity,
  ProductEntity,
  CategoryEntity,
  ProductCategoryEntity,
  CollectionEntity,
  CollectionProductEntity,
  OptionEntity,
  SkuEntity,
  MediaEntity,
  PublicationEntity,
  ProductDocumentEntity,
  CatalogVersionEntity,
  ListingCountEntity,
];
