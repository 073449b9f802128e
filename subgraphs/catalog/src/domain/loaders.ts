import { forbidden, PreparedTexts, preparedName, unauthorized, type SubgraphContext, sqlOf } from '@backoffice/platform';
import DataLoader from 'dataloader';
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import type { DataSource } from 'typeorm';
import { BRAND_COLUMNS, type BrandNode, CATEGORY_COLUMNS, type CategoryNode, COLLECTION_COLUMNS, type CollectionNode } from './groupings';
import { documentSql, productCardColumns, shapeItems, shapeSku, skuProjection, type Row } from './product-document';

const { productColumns, skuObject, productHead, skuHead } = documentSql(true);

/*
 * A projection's text depends on the selection: the first texts are kept prepared, any further one
 * runs unnamed (every pooled connection keeps each name it ran; clients may send any selection).
 */
const PROJECTED = new PreparedTexts(64);

/** The product id a SKU loaded by id carries (not a field of its document). */
export const PRODUCT_OF_SKU = Symbol('product_id');

/** A plural link lists at most this many (documented in docs/admin-graphql.md). */
export const LINK_BOUND = 100;

/** What a SKU's document leaves out: its product and shipping attributes (numbers, null when unknown). */
export interface SkuFacts {
  product_id: string;
  weight_grams: number | null;
  length_cm: number | null;
  width_cm: number | null;
  height_cm: number | null;
}

/** A product listed in a store (`publication`), the store being identity's. */
export interface PublicationNode {
  store_id: string;
  published_at: string;
}

type Keyed<T> = T & { _id: string };

export interface Loaders {
  products: DataLoader<string, Row | null>;
  skus: DataLoader<string, Record<string, unknown> | null>;
  /** The same without their lists (`DOCUMENT_LISTS`): for a selection asking none of them. */
  productHeads: DataLoader<string, Record<string, unknown> | null>;
  /** The same, each SKU's product head read along and kept in `productHeads` (one statement for a SKU and its product). */
  skuHeadsWithProducts: DataLoader<string, Record<string, unknown> | null>;
  /**
   * SKU heads narrowed to the names a selection asks (`skuProjection`), and, when `product` is given,
   * their products' cards narrowed likewise read along and kept in `productCards(product)`: an order
   * item's SKU code and product title. One loader per projection.
   */
  skuHeadsAs(sku: ReadonlySet<string>, product: ReadonlySet<string> | null): DataLoader<string, Record<string, unknown> | null>;
  /** Products' cards narrowed to the names a selection asks, one loader per projection. */
  productCards(names: ReadonlySet<string>): DataLoader<string, Record<string, unknown> | null>;
  /** By SKU id. */
  skuFacts: DataLoader<string, SkuFacts | null>;
  categories: DataLoader<string, CategoryNode | null>;
  /** By category id: its parent, null at the root. */
  parents: DataLoader<string, CategoryNode | null>;
  /** By category id: its children, by path. */
  children: DataLoader<string, CategoryNode[]>;
  brands: DataLoader<string, BrandNode | null>;
  collections: DataLoader<string, CollectionNode | null>;
  /** By product id: the collections holding it, by title. */
  productCollections: DataLoader<string, CollectionNode[]>;
  /** By collection id: its products, in the collection’s order. */
  collectionProducts: DataLoader<string, Row[]>;
  /** By product id: the stores it is published to, oldest publication first. */
  publications: DataLoader<string, PublicationNode[]>;
}

function one<T>(rows: Keyed<T>[], keys: readonly string[]): (T | null)[] {
  const map = new Map<string, T>();
  for (const { _id, ...row } of rows) map.set(_id, row as T);
  return keys.map((key) => map.get(key) ?? null);
}

function many<T>(rows: Keyed<T>[], keys: readonly string[]): T[][] {
  const map = new Map<string, T[]>(keys.map((key) => [key, []]));
  for (const { _id, ...row } of rows) map.get(_id)?.push(row as T);
  return keys.map((key) => map.get(key) ?? []);
}

/** The first LINK_BOUND rows of each key, in `order`: `SELECT … FROM (inner with row_number) WHERE n <= bound`. */
const bounded = (inner: string, order: string) =>
  `SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY _id ORDER BY ${order}) AS _n FROM (${inner}) x) y WHERE _n <= ${LINK_BOUND}`;

/** The rows without their rank (copies: see shapeSku on `delete`). */
function strip<T extends { _n?: unknown }>(rows: T[]): Omit<T, '_n'>[] {
  return rows.map(({ _n, ...row }) => row);
}

const skuText = (document: string, product = '', join = '') =>
  `SELECT s.id AS _id, s.product_id, ${document} AS doc${product && `, ${product} AS product`}
   FROM catalog.sku s${join} WHERE s.id = ANY($1::text[]) AND s.tenant_id = $2`;

/** The value kept under `key`, made and kept on first use. */
function kept<K, V>(memo: { get(key: K): V | undefined; set(key: K, value: V): unknown }, key: K, make: () => V): V {
  let value = memo.get(key);
  if (value === undefined) {
    value = make();
    memo.set(key, value);
  }
  return value;
}

// A selection's names are one set per field of a request (fieldNamesAt): its statement is written once per request, not per reference.
const skuTexts = new WeakMap<ReadonlySet<string>, Map<ReadonlySet<string> | null, string>>();
const cardTexts = new WeakMap<ReadonlySet<string>, string>();

const projectedSkuText = (sku: ReadonlySet<string>, product: ReadonlySet<string> | null): string =>
  kept(
    kept(skuTexts, sku, () => new Map<ReadonlySet<string> | null, string>()),
    product,
    () => {
      const projection = skuProjection(sku, product);
      const join = product ? ' JOIN catalog.product p ON p.id = s.product_id AND p.tenant_id = s.tenant_id' : '';
      return skuText(projection.doc, projection.product ?? '', join);
    },
  );

const cardText = (names: ReadonlySet<string>): string =>
  kept(cardTexts, names, () => `SELECT p.id AS _id, ${productCardColumns(names)} FROM catalog.product p WHERE p.id = ANY($1::text[]) AND p.tenant_id = $2`);

function build(dataSource: DataSource, tenantId: string): Loaders {
  const sql = sqlOf(dataSource);
  // Fixed texts, a few dozen: kept prepared.
  const rows = <T>(text: string, keys: readonly string[]) => sql.prepared<Keyed<T>>(text, [keys, tenantId]);
  const productHeads = new DataLoader(async (ids: readonly string[]) =>
    one(
      await rows<Record<string, unknown>>(`SELECT p.id AS _id, ${productHead} FROM catalog.product p WHERE p.id = ANY($1::text[]) AND p.tenant_id = $2`, ids),
      ids,
    ),
  );
  // A SKU's product read along as its own statement's row: the same columns, as JSON (numbers, text and JSON alike once parsed).
  const productOf = (columns: string) =>
    `(SELECT row_to_json(h) FROM (SELECT ${columns} FROM catalog.product p WHERE p.id = s.product_id AND p.tenant_id = s.tenant_id) h)`;
  type Along = { into: DataLoader<string, Record<string, unknown> | null> };
  const skusBy = (text: string, name: string | undefined, along?: Along) =>
    new DataLoader(async (ids: readonly string[]) => {
      const found = await sql.statement<Keyed<{ doc: Record<string, unknown>; product_id: string; product?: Record<string, unknown> | null }>>({
        name,
        text,
        values: [ids, tenantId],
      });
      for (const { product_id, product } of found) if (product) along?.into.prime(product_id, product);
      // Its product's id goes along: `Sku.product` then needs no second statement (see links.ts).
      return one(found, ids).map((row) => row && Object.assign(shapeSku(row.doc), { [PRODUCT_OF_SKU]: row.product_id }));
    });
  // The document and the head with its product's: fixed texts, kept prepared.
  const fixedSkus = (text: string, along?: Along) => skusBy(text, preparedName(text), along);
  const projections = new Map<string, DataLoader<string, Record<string, unknown> | null>>();
  const productCards = (names: ReadonlySet<string>) => {
    const text = cardText(names);
    return kept(
      projections,
      text,
      () =>
        new DataLoader(async (ids: readonly string[]) =>
          one(await sql.statement<Keyed<Record<string, unknown>>>({ name: PROJECTED.name(text), text, values: [ids, tenantId] }), ids),
        ),
    );
  };
  return {
    products: new DataLoader(async (ids) =>
      one(
        shapeItems(
          await rows<Row>(`SELECT p.id AS _id, ${productColumns} FROM catalog.product p WHERE p.id = ANY($1::text[]) AND p.tenant_id = $2`, ids),
        ) as Keyed<Row>[],
        ids,
      ),
    ),
    skus: fixedSkus(skuText(skuObject)),
    productHeads,
    skuHeadsWithProducts: fixedSkus(skuText(skuHead, productOf(productHead)), { into: productHeads }),
    skuHeadsAs(sku, product) {
      const text = projectedSkuText(sku, product);
      return kept(projections, text, () => skusBy(text, PROJECTED.name(text), product ? { into: productCards(product) } : undefined));
    },
    productCards,
    skuFacts: new DataLoader(async (ids) =>
      one(
        await rows<SkuFacts>(
          `SELECT s.id AS _id, s.product_id, s.weight_grams::float8 AS weight_grams, s.length_cm::float8 AS length_cm, s.width_cm::float8 AS width_cm,
             s.height_cm::float8 AS height_cm FROM catalog.sku s WHERE s.id = ANY($1::text[]) AND s.tenant_id = $2`,
          ids,
        ),
        ids,
      ),
    ),
    categories: new DataLoader(async (ids) =>
      one(
        await rows<CategoryNode>(`SELECT c.id AS _id, ${CATEGORY_COLUMNS} FROM catalog.category c WHERE c.id = ANY($1::text[]) AND c.tenant_id = $2`, ids),
        ids,
      ),
    ),
    parents: new DataLoader(async (ids) =>
      one(
        await rows<CategoryNode>(
          `SELECT child.id AS _id, ${CATEGORY_COLUMNS} FROM catalog.category child
           JOIN catalog.category c ON c.tenant_id = child.tenant_id AND c.path = subpath(child.path, 0, nlevel(child.path) - 1)
           WHERE child.id = ANY($1::text[]) AND child.tenant_id = $2 AND nlevel(child.path) > 1`,
          ids,
        ),
        ids,
      ),
    ),
    children: new DataLoader(async (ids) =>
      many(
        strip(
          await rows<CategoryNode & { _n?: number }>(
            bounded(
              `SELECT parent.id AS _id, ${CATEGORY_COLUMNS} FROM catalog.category parent
               JOIN catalog.category c ON c.tenant_id = parent.tenant_id AND c.path <@ parent.path AND nlevel(c.path) = nlevel(parent.path) + 1
               WHERE parent.id = ANY($1::text[]) AND parent.tenant_id = $2`,
              'path',
            ),
            ids,
          ),
        ),
        ids,
      ),
    ),
    brands: new DataLoader(async (ids) =>
      one(await rows<BrandNode>(`SELECT b.id AS _id, ${BRAND_COLUMNS} FROM catalog.brand b WHERE b.id = ANY($1::text[]) AND b.tenant_id = $2`, ids), ids),
    ),
    collections: new DataLoader(async (ids) =>
      one(
        await rows<CollectionNode>(
          `SELECT col.id AS _id, ${COLLECTION_COLUMNS} FROM catalog.collection col WHERE col.id = ANY($1::text[]) AND col.tenant_id = $2`,
          ids,
        ),
        ids,
      ),
    ),
    productCollections: new DataLoader(async (ids) =>
      many(
        strip(
          await rows<CollectionNode & { _n?: number }>(
            bounded(
              `SELECT cp.product_id AS _id, ${COLLECTION_COLUMNS} FROM catalog.collection_product cp JOIN catalog.collection col ON col.id = cp.collection_id
               WHERE cp.product_id = ANY($1::text[]) AND cp.tenant_id = $2`,
              'title, collection_id',
            ),
            ids,
          ),
        ),
        ids,
      ),
    ),
    collectionProducts: new DataLoader(async (ids) => {
      const found = await rows<Row & { _n?: number; _position?: number }>(
        bounded(
          `SELECT cp.collection_id AS _id, cp.position AS _position, ${productColumns} FROM catalog.collection_product cp JOIN catalog.product p ON p.id = cp.product_id
           WHERE cp.collection_id = ANY($1::text[]) AND cp.tenant_id = $2`,
          '_position, product_id',
        ),
        ids,
      );
      return many(shapeItems(found.map(({ _n, _position, ...row }) => row)) as Keyed<Row>[], ids);
    }),
    publications: new DataLoader(async (ids) =>
      many(
        strip(
          await rows<PublicationNode & { _n?: number }>(
            bounded(
              `SELECT pub.product_id AS _id, pub.store_id, to_char(pub.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS published_at
               FROM catalog.publication pub WHERE pub.product_id = ANY($1::text[]) AND pub.tenant_id = $2`,
              // The text is ISO 8601 in UTC at a fixed width: it sorts as the time does.
              'published_at, store_id',
            ),
            ids,
          ),
        ),
        ids,
      ),
    ),
  };
}

type Choice = (info: GraphQLResolveInfo, loaders: Loaders) => DataLoader<string, Record<string, unknown> | null>;
const choices = new WeakMap<Loaders, Map<Choice, WeakMap<readonly FieldNode[], DataLoader<string, Record<string, unknown> | null>>>>();

/**
 * The loader `choose` picks for a field of this request, picked once: every reference and row of a
 * list shares the field's nodes (a list of 50 orders' items asks for about 150 SKUs), and the choice
 * depends only on the selection.
 */
export function chosenLoader(info: GraphQLResolveInfo, loaders: Loaders, choose: Choice): DataLoader<string, Record<string, unknown> | null> {
  const byChoice = kept(choices, loaders, () => new Map());
  const byField = kept(byChoice, choose, () => new WeakMap());
  return kept(byField, info.fieldNodes, () => choose(info, loaders));
}

/** One set of loaders per request (one statement per kind of row, however many rows ask), and a new one after each mutation. */
const perRequest = new WeakMap<SubgraphContext, { loaders: Loaders; after?: object }>();

/** The tenant of a caller holding the catalog's admin read scope; other callers are refused on the field. */
function readerTenant(context: SubgraphContext): string {
  const actor = context.call?.actor;
  if (!actor) throw unauthorized().toGraphQLError();
  if (!actor.scopes.includes('catalog.admin.read')) throw forbidden('catalog.admin.read').toGraphQLError();
  return actor.tenant_id;
}

/** The request's loaders, for a caller with the admin read scope: only its tenant's rows are found. */
export function loadersOf(context: SubgraphContext, dataSource: DataSource): Loaders {
  const tenantId = readerTenant(context);
  const found = perRequest.get(context);
  if (found) return found.loaders;
  const loaders = build(dataSource, tenantId);
  perRequest.set(context, { loaders });
  return loaders;
}

/**
 * The loaders for the entities a mutation's result names: what the request loaded before the
 * mutation committed is stale, so the first field of each result starts a new set.
 */
export function loadersAfter(result: object, context: SubgraphContext, dataSource: DataSource): Loaders {
  const tenantId = readerTenant(context);
  const found = perRequest.get(context);
  if (found?.after === result) return found.loaders;
  const loaders = build(dataSource, tenantId);
  perRequest.set(context, { loaders, after: result });
  return loaders;
}
