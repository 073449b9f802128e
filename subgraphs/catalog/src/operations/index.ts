import { brandCreate } from './brand-create';
import { categoryCreate } from './category-create';
import { collectionAddProducts, collectionCreate } from './collections';
import { mediaAttach } from './media-attach';
import { optionCreate } from './option-create';
import { productCreate } from './product-create';
import { productPublish, productUnpublish } from './product-publication';
import { productUpdate } from './product-update';
import { skuCreate } from './sku-create';
import { skuSetPromotion } from './sku-set-promotion';

export const catalogCommands = [
  productCreate,
  productUpdate,
  productPublish,
  productUnpublish,
  skuCreate,
  skuSetPromotion,
  optionCreate,
  mediaAttach,
  categoryCreate,
  collectionCreate,
  collectionAddProducts,
  brandCreate,
];
