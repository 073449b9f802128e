import { t } from '@backoffice/platform';

/**
 * A SKU's shipping attributes: weight in grams, length, width and height in centimetres. Each is a
 * positive safe integer, or null when unknown (the default). Orders snapshot them at checkout and
 * the shipping quote builds its parcel from them.
 */
export const SKU_SHIPPING_FIELDS = ['weight_grams', 'length_cm', 'width_cm', 'height_cm'] as const;
export type SkuShippingField = (typeof SKU_SHIPPING_FIELDS)[number];

const positive = (description: string) => t.optional(t.nullable(t.integer({ minimum: 1, description: `${description}; null when unknown` })));

/** The input fields of catalog.sku.create and catalog.sku.update. */
export const skuShippingInput = {
  weight_grams: positive('weight in grams'),
  length_cm: positive('length in centimetres'),
  width_cm: positive('width in centimetres'),
  height_cm: positive('height in centimetres'),
};

export type SkuShipping = Record<SkuShippingField, number | null>;
