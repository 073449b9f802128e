import { fieldNamesAt, selectsAny, type SubgraphContext } from '@backoffice/platform';
import type { GraphQLResolveInfo } from 'graphql';
import type { DataSource } from 'typeorm';
import { loadersOf } from './loaders';
import { DOCUMENT_LISTS, withinCard } from './product-document';

type Entity = 'categories' | 'brands' | 'collections';

/** A SKU reference's head: with its product's card or head read along when `product` is selected (see links.ts). */
function skuHeadFor(info: GraphQLResolveInfo): 'skuHeads' | 'skuHeadsWithProducts' | 'skuHeadsWithCards' {
  if (!selectsAny(info, 'Sku', ['product'])) return 'skuHeads';
  return withinCard(fieldNamesAt(info, 'product')) ? 'skuHeadsWithCards' : 'skuHeadsWithProducts';
}

/**
 * Products, SKUs, categories, brands and collections are federation entities: another subgraph
 * (orders) names them by key and the gateway asks the catalog for the rest, batched per request
 * (`loaders.ts`). The caller needs the admin read's scope (the documents are the full ones, drafts
 * included) and only its tenant is searched (another tenant's is null). A caller without the scope
 * gets `forbidden` naming it on the field, beside the rest of its answer.
 */
export function referenceResolvers({ dataSource }: { dataSource: DataSource }) {
  // Async, so a refusal is the one reference's (null, with its error), never the whole `_entities` list's.
  const resolve = (kind: Entity, key: string) => async (reference: Record<string, string>, context: SubgraphContext) =>
    loadersOf(context, dataSource)[kind].load(reference[key]);
  // A reference selecting none of its document's lists reads the head alone (an order's items ask a
  // SKU's code and its product's title: the SKU heads then bring their products' heads along).
  const document =
    (
      type: keyof typeof DOCUMENT_LISTS,
      kind: 'products' | 'skus',
      head: (info: GraphQLResolveInfo) => 'productHeads' | 'skuHeads' | 'skuHeadsWithProducts' | 'skuHeadsWithCards',
      key: string,
    ) =>
    async (reference: Record<string, string>, context: SubgraphContext, info: GraphQLResolveInfo) =>
      loadersOf(context, dataSource)[selectsAny(info, type, DOCUMENT_LISTS[type]) ? kind : head(info)].load(reference[key]);
  return {
    Product: { __resolveReference: document('Product', 'products', () => 'productHeads', 'product_id') },
    Sku: { __resolveReference: document('Sku', 'skus', skuHeadFor, 'sku_id') },
    Category: { __resolveReference: resolve('categories', 'category_id') },
    Brand: { __resolveReference: resolve('brands', 'brand_id') },
    Collection: { __resolveReference: resolve('collections', 'collection_id') },
  };
}
