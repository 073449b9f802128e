import { defineEvent, t } from '@backoffice/platform';
import { PRODUCT_STATUSES } from './domain/products';
import { SKU_SHIPPING_FIELDS } from '@backoffice/contracts';

/** Every event the catalog emits, with its payload. */

/** Fields a `catalog.product.updated` may name: the update's own fields, or what an option or media command added. */
const PRODUCT_CHANGES = ['title', 'handle', 'description', 'status', 'metadata', 'brand_id', 'categories', 'custom_fields', 'options', 'media'] as const;
export type ProductChange = (typeof PRODUCT_CHANGES)[number];

export const productCreated = defineEvent(
  'catalog.product.created',
  t.object({ product_id: t.string(), handle: t.string(), status: t.enum(PRODUCT_STATUSES) }),
  'A product was created.',
);

export const productUpdated = defineEvent(
  'catalog.product.updated',
  t.object({
    product_id: t.string(),
    changed: t.array(t.enum(PRODUCT_CHANGES), {
      description: 'the fields given to catalog.product.update; `options` or `media` from the option and media commands',
    }),
    status: t.optional(t.enum(PRODUCT_STATUSES, { description: 'the status after the update (catalog.product.update)' })),
    option_id: t.optional(t.string({ description: 'the option added (catalog.option.create)' })),
    media_id: t.optional(t.string({ description: 'the media attached or updated (catalog.media.attach)' })),
  }),
  'A product changed: its fields, its options or its media.',
);

export const productPublished = defineEvent(
  'catalog.product.published',
  t.object({ product_id: t.string(), store_id: t.string() }),
  'A product was listed in a store (not emitted when it was listed already).',
);

export const productUnpublished = defineEvent(
  'catalog.product.unpublished',
  t.object({ product_id: t.string(), store_id: t.string() }),
  'A product was taken out of a store (not emitted when it was not listed).',
);

export const skuCreated = defineEvent(
  'catalog.sku.created',
  t.object({ sku_id: t.string(), product_id: t.string(), code: t.string(), amount: t.integer({ minimum: 0 }) }),
  'A SKU was added to a product.',
);

/** Fields a `catalog.sku.updated` may name: catalog.sku.update's own, or `media` (catalog.media.attach). */
export const SKU_CHANGES = ['code', 'name', 'ean', 'amount', 'compare_at_amount', 'status', 'metadata', 'ref', ...SKU_SHIPPING_FIELDS, 'media'] as const;
export type SkuChange = (typeof SKU_CHANGES)[number];

const nullableInteger = t.nullable(t.integer({ minimum: 0 }));
/** The SKU after catalog.sku.update (its price, status and shipping attributes): the result's fields and the event's `sku`. */
export const skuStateFields = {
  code: t.string(),
  amount: t.integer({ minimum: 0 }),
  compare_at_amount: nullableInteger,
  status: t.string(),
  weight_grams: nullableInteger,
  length_cm: nullableInteger,
  width_cm: nullableInteger,
  height_cm: nullableInteger,
};
const skuState = t.object(skuStateFields, { description: 'the SKU after the update (catalog.sku.update)' });

export const skuUpdated = defineEvent(
  'catalog.sku.updated',
  t.object({
    sku_id: t.string(),
    product_id: t.string(),
    promotional_amount: t.optional(
      t.nullable(t.integer({ minimum: 0, description: 'the new promotional amount, null when cleared (catalog.sku.set_promotion)' })),
    ),
    changed: t.optional(
      t.array(t.enum(SKU_CHANGES), {
        description: 'the fields catalog.sku.update changed (those given with their value unchanged are not listed); `media` from catalog.media.attach',
      }),
    ),
    media_id: t.optional(t.string({ description: 'the media attached or updated (catalog.media.attach)' })),
    sku: t.optional(skuState),
  }),
  'A SKU changed: its fields (catalog.sku.update), its promotional amount or its media.',
);

export const categoryCreated = defineEvent(
  'catalog.category.created',
  t.object({ category_id: t.string(), path: t.string(), name: t.string() }),
  'A category was created.',
);

export const collectionCreated = defineEvent(
  'catalog.collection.created',
  t.object({ collection_id: t.string(), handle: t.string() }),
  'A collection was created.',
);

export const collectionUpdated = defineEvent(
  'catalog.collection.updated',
  t.object({ collection_id: t.string(), added: t.array(t.string(), { minItems: 1, description: 'the products added (those already in it are not listed)' }) }),
  'Products were added to a collection (not emitted when none was new).',
);

export const brandCreated = defineEvent('catalog.brand.created', t.object({ brand_id: t.string(), name: t.string() }), 'A brand was created.');

export const catalogEvents = [
  productCreated,
  productUpdated,
  productPublished,
  productUnpublished,
  skuCreated,
  skuUpdated,
  categoryCreated,
  collectionCreated,
  collectionUpdated,
  brandCreated,
];
