import { fieldNamesAt, selectsAny, type SubgraphContext } from '@backoffice/platform';
import type { GraphQLResolveInfo } from 'graphql';
import type { DataSource } from 'typeorm';
import type DataLoader from 'dataloader';
import { chosenLoader, type Loaders, loadersOf } from './loaders';
import { DOCUMENT_LISTS, withinCard } from './product-document';

type Entity = 'categories' | 'brands' | 'collections';

/**
 * A SKU reference's loader: its whole document when one of its lists is selected; else its head
 * narrowed to the selection, its product's card (narrowed too) or head read along when `product` is
 * selected (see links.ts).
 */
function skuLoader(info: GraphQLResolveInfo, l: Loaders): DataLoader<string, Record<string, unknown> | null> {
  if (selectsAny(info, 'Sku', DOCUMENT_LISTS.Sku)) return l.skus;
  if (!selectsAny(info, 'Sku', ['product'])) return l.skuHeadsAs(fieldNamesAt(info, ''), null);
  const product = fieldNamesAt(info, 'product');
  return withinCard(product) ? l.skuHeadsAs(fieldNamesAt(info, ''), product) : l.skuHeadsWithProducts;
}

/** A product reference's loader: its whole document when one of its lists is selected, else its head. */
const productReferenceLoader = (info: GraphQLResolveInfo, l: Loaders) => (selectsAny(info, 'Product', DOCUMENT_LISTS.Product) ? l.products : l.productHeads);

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
  // SKU's code and its product's title: the SKU heads then bring their products' cards along).
  const product = async (reference: Record<string, string>, context: SubgraphContext, info: GraphQLResolveInfo) =>
    chosenLoader(info, loadersOf(context, dataSource), productReferenceLoader).load(reference.product_id);
  const sku = async (reference: Record<string, string>, context: SubgraphContext, info: GraphQLResolveInfo) =>
    chosenLoader(info, loadersOf(context, dataSource), skuLoader).load(reference.sku_id);
  return {
    Product: { __resolveReference: product },
    Sku: { __resolveReference: sku },
    Category: { __resolveReference: resolve('categories', 'category_id') },
    Brand: { __resolveReference: resolve('brands', 'brand_id') },
    Collection: { __resolveReference: resolve('collections', 'collection_id') },
  };
}
