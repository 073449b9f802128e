import { t } from '@backoffice/platform';

const positive = (description: string) => t.optional(t.nullable(t.integer({ minimum: 1, description: `${description}; null when unknown` })));

/** The input fields of catalog.sku.create and catalog.sku.update. */
export const skuShippingInput = {
  weight_grams: positive('weight in grams'),
  length_cm: positive('length in centimetres'),
  width_cm: positive('width in centimetres'),
  height_cm: positive('height in centimetres'),
};
