import { fieldNamesAt, selectsAny, type SubgraphContext } from '@backoffice/platform';
import type { GraphQLResolveInfo } from 'graphql';
import type { DataSource } from 'typeorm';
import { chosenLoader, type Loaders, loadersAfter, loadersOf, PRODUCT_OF_SKU } from './loaders';
import { DOCUMENT_LISTS, withinCard } from './product-document';

/** A SKU's product: its head alone when no list of the product is selected, its card when no more than the card is (an order item's product title). */
function productOfSkuLoader(info: GraphQLResolveInfo, l: Loaders) {
  if (selectsAny(info, 'Product', DOCUMENT_LISTS.Product)) return l.products;
  const names = fieldNamesAt(info, '');
  return withinCard(names) ? l.productCards(names) : l.productHeads;
}

type Resolver<P> = (parent: P, args: unknown, context: SubgraphContext, info: GraphQLResolveInfo) => unknown;
type Fact = 'weight_grams' | 'length_cm' | 'width_cm' | 'height_cm';

/**
 * The links between the catalog's entities, and from them to identity's `Store` (a reference by key,
 * which the gateway asks identity for). Each loads through the request's loaders (`loaders.ts`): a
 * page of products costs one statement per kind of link, not one per product.
 */
export function linkResolvers({ dataSource }: { dataSource: DataSource }) {
  const load =
    <P>(link: (parent: P, loaders: Loaders, info: GraphQLResolveInfo) => unknown): Resolver<P> =>
    (parent, _args, context, info) =>
      link(parent, loadersOf(context, dataSource), info);
  const fact = (name: Fact) => load<{ sku_id: string }>(async (sku, l) => (await l.skuFacts.load(sku.sku_id))?.[name] ?? null);
  return {
    Product: {
      brand: load<{ brand_id: string | null }>((product, l) => (product.brand_id ? l.brands.load(product.brand_id) : null)),
      collections: load<{ product_id: string }>((product, l) => l.productCollections.load(product.product_id)),
      stores: load<{ product_id: string }>((product, l) => l.publications.load(product.product_id)),
    },
    ProductCategories: {
      category: load<{ category_id: string }>((placed, l) => l.categories.load(placed.category_id)),
    },
    Publication: {
      store: (publication: { store_id: string }) => ({ __typename: 'Store', store_id: publication.store_id }),
    },
    Sku: {
      product: load<{ sku_id: string; [PRODUCT_OF_SKU]?: string }>(async (sku, l, info) => {
        const productId = sku[PRODUCT_OF_SKU] ?? (await l.skuFacts.load(sku.sku_id))?.product_id;
        if (!productId) return null;
        return chosenLoader(info, l, productOfSkuLoader).load(productId);
      }),
      weight_grams: fact('weight_grams'),
      length_cm: fact('length_cm'),
      width_cm: fact('width_cm'),
      height_cm: fact('height_cm'),
    },
    Category: {
      parent: load<{ category_id: string }>((category, l) => l.parents.load(category.category_id)),
      children: load<{ category_id: string }>((category, l) => l.children.load(category.category_id)),
    },
    Collection: {
      products: load<{ collection_id: string }>((collection, l) => l.collectionProducts.load(collection.collection_id)),
    },
  };
}

/**
 * The entity a command's result names, as it is once the command committed: loaded by the catalog
 * itself (no second fetch by the gateway), through loaders made after the mutation.
 */
export function resultEntityResolvers({ dataSource }: { dataSource: DataSource }) {
  const entity =
    <K extends string>(kind: 'products' | 'skus' | 'categories' | 'brands' | 'collections', key: K): Resolver<Record<K, string>> =>
    (result, _args, context) =>
      loadersAfter(result, context, dataSource)[kind].load(result[key]);
  const product = { product: entity('products', 'product_id') };
  const sku = { sku: entity('skus', 'sku_id') };
  return {
    CatalogProductCreateResult: product,
    CatalogProductUpdateResult: product,
    CatalogProductPublishResult: product,
    CatalogProductUnpublishResult: product,
    CatalogSkuCreateResult: sku,
    CatalogSkuUpdateResult: { ...sku, ...product },
    CatalogSkuSetPromotionResult: sku,
    CatalogCategoryCreateResult: { category: entity('categories', 'category_id') },
    CatalogCollectionCreateResult: { collection: entity('collections', 'collection_id') },
    CatalogCollectionAddProductsResult: { collection: entity('collections', 'collection_id') },
    CatalogBrandCreateResult: { brand: entity('brands', 'brand_id') },
  };
}
