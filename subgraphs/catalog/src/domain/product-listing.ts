import { t, type TSchema } from '@backoffice/platform';
import { documentSql, feedProductFields, feedSkuFields, product } from './product-document';
import { CATEGORY_PATH_PATTERN } from './products';

/**
 * What `read.products` (GET /v1/read/products) lists: the products published to a store.
 *
 * A page costs a constant number of SQL statements whatever its size: one statement selects the
 * page in index order and builds each product's document (SKUs, media, categories, options) with
 * correlated subqueries in the same statement; one gives the total (the per-store published counts
 * when no filter needs counting rows); one more computes the facets when they are asked for. The
 * three run concurrently.
 */

export const PROJECTIONS = ['full', 'feed'] as const;
export type Projection = (typeof PROJECTIONS)[number];
export const SORTS = ['newest', 'price_asc', 'price_desc', 'title_asc'] as const;
export type Sort = (typeof SORTS)[number];
export const FACETS = ['options', 'categories', 'price', 'custom_fields'] as const;
export type Facet = (typeof FACETS)[number];
/** Values listed per option or custom field in a facet, most frequent first. */
export const FACET_VALUES_MAX = 100;
/** Categories listed in the categories facet, most frequent first. */
export const FACET_CATEGORIES_MAX = 200;
const PRICE_BUCKETS = 5;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const nameValue = (what: string) =>
  t.object({
    name: t.string({ minLength: 1, maxLength: 100, description: `${what} name, exactly as stored` }),
    value: t.string({ minLength: 1, maxLength: 500 }),
  });

export const listingInput = t.object({
  store: t.id("the store's id or its handle"),
  category: t.optional(t.string({ minLength: 1, maxLength: 1000, pattern: CATEGORY_PATH_PATTERN, description: 'ltree path; matches the category and its subtree' })),
  collection: t.optional(t.id('collection handle')),
  status: t.optional(t.enum(['draft', 'active', 'archived'] as const)),
  options: t.optional(
    t.array(nameValue('option'), {
      maxItems: 20,
    }),
  ),
  price_min: t.optional(t.integer({ minimum: 0, description: 'some SKU (matching the option filters) costs at least this (minor units)' })),
  price_max: t.optional(t.integer({ minimum: 0, description: 'some SKU (matching the option filters) costs at most this (minor units)' })),
  custom_fields: t.optional(t.array(nameValue('custom field'), { maxItems: 20 })),
  sort: t.optional(t.enum(SORTS, { default: 'newest' })),
  facets: t.optional(t.array(t.enum(FACETS), { uniqueItems: true, maxItems: FACETS.length })),
  limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
  page: t.optional(t.integer({ minimum: 1, default: 1 })),
  projection: t.optional(t.string({ minLength: 1, maxLength: 100, description: 'declared names: full, feed; absent means full' })),
});

export type ListingInput = {
  store: string;
  category?: string;
  collection?: string;
  status?: 'draft' | 'active' | 'archived';
  options?: { name: string; value: string }[];
  price_min?: number;
  price_max?: number;
  custom_fields?: { name: string; value: string }[];
  sort?: Sort;
  facets?: Facet[];
  limit?: number;
  page?: number;
  projection?: string;
};

const DIRECT = ['store', 'category', 'collection', 'status', 'price_min', 'price_max', 'sort', 'limit', 'page', 'projection'] as const;

/**
 * The query string as input: `option.<name>=<value>` and `cf.<name>=<value>` (repeatable: any of
 * the values) become `options`/`custom_fields`; `facets=options,price` (or `facets=all`) a list.
 * Parameters it does not know are dropped (the reference accepts extra string parameters).
 */
export function productsFromQuery(query: Record<string, string | string[]>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const options: { name: string; value: string }[] = [];
  const customFields: { name: string; value: string }[] = [];
  const all = (v: string | string[]) => (Array.isArray(v) ? v : [v]);
  for (const [key, value] of Object.entries(query)) {
    if ((DIRECT as readonly string[]).includes(key)) out[key] = value;
    else if (key.startsWith('option.')) for (const v of all(value)) options.push({ name: key.slice('option.'.length), value: v });
    else if (key.startsWith('cf.')) for (const v of all(value)) customFields.push({ name: key.slice('cf.'.length), value: v });
    else if (key === 'facets') {
      const names = all(value).flatMap((v) => v.split(',')).map((v) => v.trim()).filter(Boolean);
      out.facets = [...new Set(names.flatMap((n) => (n === 'all' || n === 'true' ? [...FACETS] : [n])))];
    }
  }
  if (options.length) out.options = options;
  if (customFields.length) out.custom_fields = customFields;
  return out;
}


// ---------------------------------------------------------------------------------------------
// Result: a page of full documents, or of the feed projection (section 2, exactly)
// ---------------------------------------------------------------------------------------------

const feedProduct = t.object({ ...feedProductFields, skus: t.array(t.object(feedSkuFields)) });

const valueCount = t.object({ value: t.string(), count: t.integer({ minimum: 0 }) });
const facets = t.object({
  options: t.optional(t.array(t.object({ name: t.string(), values: t.array(valueCount) }))),
  categories: t.optional(t.array(t.object({ category_id: t.string(), path: t.string(), name: t.string(), count: t.integer({ minimum: 0 }) }))),
  price: t.optional(
    t.object({
      min: t.nullable(t.integer()),
      max: t.nullable(t.integer()),
      buckets: t.array(t.object({ from: t.integer(), to: t.integer(), count: t.integer({ minimum: 0 }) })),
    }),
  ),
  custom_fields: t.optional(t.array(t.object({ name: t.string(), values: t.array(valueCount) }))),
});

const pageOf = <S extends TSchema>(item: S) =>
  t.object({
    items: t.array(item),
    page: t.integer({ minimum: 1 }),
    limit: t.integer({ minimum: 1 }),
    total: t.integer({ minimum: 0 }),
    facets: t.optional(facets),
  });

export const productPage = pageOf(product);
export const feedPage = pageOf(feedProduct);

// ---------------------------------------------------------------------------------------------
// SQL
// ---------------------------------------------------------------------------------------------

const ORDER: Record<Sort, string> = {
  newest: 'pub.product_created_at DESC, pub.product_id DESC',
  price_asc: 'pub.price_min ASC NULLS LAST, pub.product_id ASC',
  price_desc: 'pub.price_min DESC NULLS LAST, pub.product_id DESC',
  title_asc: 'pub.title ASC, pub.product_id ASC',
};

/** Scalar JSON forms a custom field value given as text may have been stored as. */
function jsonForms(value: string): unknown[] {
  const forms: unknown[] = [value];
  if (value.trim() !== '' && Number.isFinite(Number(value))) forms.push(Number(value));
  if (value === 'true' || value === 'false') forms.push(value === 'true');
  return forms;
}

function groupByName(pairs: { name: string; value: string }[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { name, value } of pairs) groups.set(name, [...new Set([...(groups.get(name) ?? []), value])]);
  return groups;
}

export interface ProductQuery {
  /** The page with each product's document. */
  page: { text: string; values: unknown[] };
  /** One row `{ total }`. */
  total: { text: string; values: unknown[] };
  /** One row of facet aggregates, when facets were asked for. */
  facets?: { text: string; values: unknown[] };
}

/** The statements of one page: what the handler runs, and what the benchmark runs bare. */
export function productQuery(store: { store_id: string; tenant_id: string }, input: ListingInput, projection: Projection): ProductQuery {
  const values: unknown[] = [store.store_id, store.tenant_id];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where = ['pub.store_id = $1', 'pub.tenant_id = $2'];
  let filtered = false;
  if (input.status) where.push(`pub.status = ${param(input.status)}`);
  if (input.category) {
    filtered = true;
    where.push(`pub.product_id IN (SELECT pc.product_id FROM catalog.category c JOIN catalog.product_category pc ON pc.category_id = c.id
      WHERE c.tenant_id = $2 AND c.path <@ ${param(input.category)}::ltree)`);
  }
  if (input.collection) {
    filtered = true;
    where.push(`pub.product_id IN (SELECT cp.product_id FROM catalog.collection co JOIN catalog.collection_product cp ON cp.collection_id = co.id
      WHERE co.tenant_id = $2 AND co.handle = ${param(input.collection)})`);
  }
  // One SKU must match every option filter and the price range.
  const skuConditions: string[] = [];
  // A Map, then fromEntries: an option named `__proto__` must be a key like any other.
  const single = new Map<string, string>();
  for (const [name, vals] of groupByName(input.options ?? [])) {
    if (vals.length === 1) single.set(name, vals[0]);
    else skuConditions.push(`s.option_values ->> ${param(name)} = ANY(${param(vals)}::text[])`);
  }
  if (single.size) skuConditions.unshift(`s.option_values @> ${param(JSON.stringify(Object.fromEntries(single)))}::jsonb`);
  if (input.price_min !== undefined) {
    skuConditions.push(`s.amount >= ${param(input.price_min)}`);
    where.push(`pub.price_max >= $${values.length}`);
  }
  if (input.price_max !== undefined) {
    skuConditions.push(`s.amount <= ${param(input.price_max)}`);
    where.push(`pub.price_min <= $${values.length}`);
  }
  if (skuConditions.length) {
    filtered = true;
    where.push(`pub.product_id IN (SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = $2 AND ${skuConditions.join(' AND ')})`);
  }
  for (const [name, vals] of groupByName(input.custom_fields ?? [])) {
    filtered = true;
    const forms = vals.flatMap(jsonForms).map((v) => `p.custom_fields @> ${param(JSON.stringify({ [name]: v }))}::jsonb`);
    where.push(`pub.product_id IN (SELECT p.id FROM catalog.product p WHERE p.tenant_id = $2 AND (${forms.join(' OR ')}))`);
  }
  const whereSql = where.join('\n    AND ');
  const filterValues = [...values];

  const limit = input.limit ?? 24;
  const pageNo = input.page ?? 1;
  const order = ORDER[input.sort ?? 'newest'];
  const full = projection === 'full';
  const { productColumns } = documentSql(full);
  const pageText = `
    WITH page AS (
      SELECT pub.product_id, row_number() OVER (ORDER BY ${order}) AS ord
      FROM catalog.publication pub
      WHERE ${whereSql}
      ORDER BY ${order}
      LIMIT ${param(limit)} OFFSET ${param((pageNo - 1) * limit)})
    SELECT ${productColumns}
    FROM page JOIN catalog.product p ON p.id = page.product_id
    ORDER BY page.ord`;

  const total = filtered
    ? { text: `SELECT count(*)::int AS total FROM catalog.publication pub WHERE ${whereSql}`, values: filterValues }
    : input.status
      ? { text: `SELECT coalesce(sum(published), 0)::int AS total FROM catalog.store_listing_count WHERE store_id = $1 AND tenant_id = $2 AND status = $3`, values: filterValues }
      : { text: `SELECT coalesce(sum(published), 0)::int AS total FROM catalog.store_listing_count WHERE store_id = $1 AND tenant_id = $2`, values: filterValues };

  const asked = new Set(input.facets ?? []);
  let facetsQuery: ProductQuery['facets'];
  if (asked.size) {
    const parts: string[] = [];
    if (asked.has('options')) {
      parts.push(`(SELECT coalesce(json_agg(json_build_array(name, value, n)), '[]') FROM (
        SELECT e.key AS name, e.value AS value, count(DISTINCT s.product_id)::int AS n
        FROM matched JOIN catalog.sku s ON s.product_id = matched.product_id CROSS JOIN jsonb_each_text(s.option_values) e
        GROUP BY 1, 2) x) AS options`);
    }
    if (asked.has('categories')) {
      parts.push(`(SELECT coalesce(json_agg(json_build_array(id, path, name, n) ORDER BY n DESC, path), '[]') FROM (
        SELECT c.id, c.path::text AS path, c.name, count(*)::int AS n
        FROM matched JOIN catalog.product_category pc ON pc.product_id = matched.product_id JOIN catalog.category c ON c.id = pc.category_id
        GROUP BY c.id ORDER BY n DESC, path LIMIT ${FACET_CATEGORIES_MAX}) x) AS categories`);
    }
    if (asked.has('price')) {
      parts.push(`(SELECT json_build_object('min', lo, 'max', hi, 'buckets', (
          SELECT coalesce(json_agg(json_build_array(b, n) ORDER BY b), '[]') FROM (
            SELECT least(width_bucket(price_min, lo, hi + 1, ${PRICE_BUCKETS}), ${PRICE_BUCKETS}) AS b, count(*)::int AS n
            FROM matched WHERE price_min IS NOT NULL GROUP BY 1) y))
        FROM (SELECT min(price_min)::float8 AS lo, max(price_min)::float8 AS hi FROM matched) r) AS price`);
    }
    if (asked.has('custom_fields')) {
      parts.push(`(SELECT coalesce(json_agg(json_build_array(name, value, n)), '[]') FROM (
        SELECT f.key AS name, f.value #>> '{}' AS value, count(*)::int AS n
        FROM matched JOIN catalog.product p ON p.id = matched.product_id CROSS JOIN jsonb_each(p.custom_fields) f
        WHERE jsonb_typeof(f.value) IN ('string', 'number', 'boolean')
        GROUP BY 1, 2) x) AS custom_fields`);
    }
    facetsQuery = {
      text: `WITH matched AS MATERIALIZED (SELECT pub.product_id, pub.price_min FROM catalog.publication pub WHERE ${whereSql})
        SELECT ${parts.join(',\n        ')}`,
      values: filterValues,
    };
  }
  return { page: { text: pageText, values }, total, ...(facetsQuery ? { facets: facetsQuery } : {}) };
}


// ---------------------------------------------------------------------------------------------
// Facets as served
// ---------------------------------------------------------------------------------------------

function valueFacet(rows: [string, string, number][]) {
  const byName = new Map<string, { value: string; count: number }[]>();
  for (const [name, value, count] of rows) {
    const list = byName.get(name) ?? byName.set(name, []).get(name)!;
    list.push({ value, count });
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, list]) => ({
      name,
      values: list.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0)).slice(0, FACET_VALUES_MAX),
    }));
}

export function shapeFacets(row: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  if (row.options) out.options = valueFacet(row.options as [string, string, number][]);
  if (row.custom_fields) out.custom_fields = valueFacet(row.custom_fields as [string, string, number][]);
  if (row.categories) {
    out.categories = (row.categories as [string, string, string, number][]).map(([category_id, path, name, count]) => ({ category_id, path, name, count }));
  }
  if (row.price) {
    const price = row.price as { min: number | null; max: number | null; buckets: [number, number][] };
    const buckets: { from: number; to: number; count: number }[] = [];
    if (price.min !== null && price.max !== null) {
      const width = (price.max + 1 - price.min) / PRICE_BUCKETS;
      const counts = new Map(price.buckets.map(([b, n]) => [b, n]));
      for (let b = 1; b <= PRICE_BUCKETS; b++) {
        // The integers width_bucket puts in bucket b: min + (b-1)·width <= x < min + b·width.
        const from = Math.ceil(price.min + (b - 1) * width);
        const to = b === PRICE_BUCKETS ? price.max : Math.ceil(price.min + b * width) - 1;
        if (to < from) continue;
        buckets.push({ from, to, count: counts.get(b) ?? 0 });
      }
    }
    out.price = { min: price.min, max: price.max, buckets };
  }
  return out;
}
