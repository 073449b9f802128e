import { EntitySchema } from 'typeorm';

/** TypeORM's view of the catalog tables (the migrations are their source of truth). */
const base = { id: { type: 'text', primary: true }, tenant_id: { type: 'text' } } as const;

export const ProductEntity = new EntitySchema({
  name: 'Product',
  tableName: 'product',
  columns: {
    ...base,
    title: { type: 'text' },
    handle: { type: 'text' },
    description: { type: 'text', nullable: true },
    status: { type: 'text' },
    metadata: { type: 'jsonb' },
    custom_fields: { type: 'jsonb' },
    rich_content: { type: 'jsonb', nullable: true },
    brand_id: { type: 'text', nullable: true },
    price_min: { type: 'bigint', nullable: true },
    price_max: { type: 'bigint', nullable: true },
    created_at: { type: 'timestamptz', createDate: true },
    updated_at: { type: 'timestamptz', updateDate: true },
  },
});

export const SkuEntity = new EntitySchema({
  name: 'Sku',
  tableName: 'sku',
  columns: {
    ...base,
    product_id: { type: 'text' },
    code: { type: 'text' },
    name: { type: 'text', nullable: true },
    ean: { type: 'text', nullable: true },
    amount: { type: 'bigint' },
    compare_at_amount: { type: 'bigint', nullable: true },
    promotional_amount: { type: 'bigint', nullable: true },
    currency: { type: 'char', length: 3 },
    is_default: { type: 'boolean' },
    status: { type: 'text' },
    metadata: { type: 'jsonb' },
    ref: { type: 'text', nullable: true },
    option_values: { type: 'jsonb' },
    position: { type: 'int' },
    created_at: { type: 'timestamptz', createDate: true },
  },
});

export const OptionEntity = new EntitySchema({
  name: 'Option',
  tableName: 'option',
  columns: { ...base, product_id: { type: 'text' }, name: { type: 'text' }, values: { type: 'text', array: true }, default_value: { type: 'text' }, position: { type: 'int' } },
});

export const CategoryEntity = new EntitySchema({
  name: 'Category',
  tableName: 'category',
  columns: { ...base, path: { type: 'text' }, name: { type: 'text' }, created_at: { type: 'timestamptz', createDate: true } },
});

export const MediaEntity = new EntitySchema({
  name: 'Media',
  tableName: 'media',
  columns: {
    ...base,
    product_id: { type: 'text' },
    owner_type: { type: 'text' },
    owner_id: { type: 'text' },
    provider_key: { type: 'text' },
    kind: { type: 'text' },
    url: { type: 'text', nullable: true },
    alt: { type: 'text', nullable: true },
    position: { type: 'int' },
    role: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', createDate: true },
  },
});

export const catalogEntities = [ProductEntity, SkuEntity, OptionEntity, CategoryEntity, MediaEntity];
