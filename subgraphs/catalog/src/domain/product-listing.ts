import { Clause, conditions, PreparedTexts, preparedName, sqlText, t, type TSchema } from '@backoffice/platform';
import { feedProduct, product } from './product-document';
import { CATEGORY_PATH_PATTERN, PRODUCT_STATUSES, productStatus } from './products';
import { priceTermsWithin } from './publication';

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
/** Options and custom fields listed in their facets, by name. */
export const FACET_NAMES_MAX = 100;
const PRICE_BUCKETS = 5;
/** Products in one page of a listing (the reference's limit). */
const PAGE_MAX = 100;

// ---------------------------------------------------------------------------------------------
// Input
// ---------------------------------------------------------------------------------------------

const nameValue = (what: string) =>
  t.object({
    name: t.string({ minLength: 1, maxLength: 100, description: `${what} name, exactly as stored` }),
    value: t.string({ minLength: 1, maxLength: 500 }),
  });

export const listingInput = t.object({
  store: t.id("the store's id, handle or host"),
  category: t.optional(
    t.string({ minLength: 1, maxLength: 1000, pattern: CATEGORY_PATH_PATTERN, description: 'ltree path; matches the category and its subtree' }),
  ),
  collection: t.optional(t.id('collection handle')),
  status: t.optional(productStatus()),
  options: t.optional(
    t.array(nameValue('option'), {
      maxItems: 20,
      description: 'a SKU with that option value; several names must hold on one SKU; one name repeated means any of its values',
    }),
  ),
  price_min: t.optional(t.integer({ minimum: 0, description: 'some SKU (matching the option filters) costs at least this (minor units)' })),
  price_max: t.optional(t.integer({ minimum: 0, description: 'some SKU (matching the option filters) costs at most this (minor units)' })),
  custom_fields: t.optional(
    t.array(nameValue('custom field'), { maxItems: 20, description: 'a custom field equal to the value (text, or the number or boolean it spells)' }),
  ),
  sort: t.optional(t.enum(SORTS, { default: 'newest', name: 'ProductSort' })),
  facets: t.optional(
    t.array(t.enum(FACETS, { name: 'ProductFacet' }), {
      uniqueItems: true,
      maxItems: FACETS.length,
      description: 'opt-in facets; over REST `all` (or `true`) asks for every one',
    }),
  ),
  limit: t.optional(t.integer({ minimum: 1, maximum: PAGE_MAX, default: 24 })),
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

/** `facets=all` (or `true`) over REST asks for every facet. */
export const EVERY_FACET = ['all', 'true'] as const;

export function productsFromQuery(input: Record<string, unknown>): Record<string, unknown> {
  const names = input.facets as string[] | undefined;
  if (!names) return input;
  return { ...input, facets: [...new Set(names.flatMap((n) => ((EVERY_FACET as readonly string[]).includes(n) ? [...FACETS] : [n])))] };
}

// ---------------------------------------------------------------------------------------------
// Result: a page of full documents, or of the feed projection (section 2, exactly)
// ---------------------------------------------------------------------------------------------

const valueCount = t.object({ value: t.string(), count: t.integer({ minimum: 0 }) });
const valuesFacet = t.object({ name: t.string(), values: t.array(valueCount, { maxItems: FACET_VALUES_MAX }) });
const facets = t.object({
  options: t.optional(t.array(valuesFacet, { maxItems: FACET_NAMES_MAX })),
  categories: t.optional(
    t.array(t.object({ category_id: t.string(), path: t.string(), name: t.string(), count: t.integer({ minimum: 0 }) }), { maxItems: FACET_CATEGORIES_MAX }),
  ),
  price: t.optional(
    t.object({
      min: t.nullable(t.integer()),
      max: t.nullable(t.integer()),
      buckets: t.array(t.object({ from: t.integer(), to: t.integer(), count: t.integer({ minimum: 0 }) }), { maxItems: PRICE_BUCKETS }),
    }),
  ),
  custom_fields: t.optional(t.array(valuesFacet, { maxItems: FACET_NAMES_MAX })),
});

const TOTAL_EXACT_UP_TO_TEXT = '10,000';

const pageOf = <S extends TSchema>(item: S) =>
  t.object({
    items: t.array(item, { maxItems: PAGE_MAX }),
    page: t.integer({ minimum: 1 }),
    limit: t.integer({ minimum: 1 }),
    total: t.integer({ minimum: 0, description: `matches; a filtered page counts at most ${TOTAL_EXACT_UP_TO_TEXT} (then total_exact is false)` }),
    total_exact: t.boolean({ description: `false when total was capped at ${TOTAL_EXACT_UP_TO_TEXT}: there are more matches` }),
    facets: t.optional(facets),
  });

export const productPage = pageOf(product);
export const feedPage = pageOf(feedProduct);

// ---------------------------------------------------------------------------------------------
// SQL
// ---------------------------------------------------------------------------------------------

/** Each sort's keys (a listing's columns, the product id last so that the order is total) and their directions. */
const ORDER: Record<Sort, [column: string, direction: string][]> = {
  newest: [
    ['product_created_at', 'DESC'],
    ['product_id', 'DESC'],
  ],
  price_asc: [
    ['price_min', 'ASC NULLS LAST'],
    ['product_id', 'ASC'],
  ],
  price_desc: [
    ['price_min', 'DESC NULLS LAST'],
    ['product_id', 'DESC'],
  ],
  title_asc: [
    ['title', 'ASC'],
    ['product_id', 'ASC'],
  ],
};

const orderOf = (sort: Sort, alias: string) => ORDER[sort].map(([column, direction]) => `${alias}.${column} ${direction}`).join(', ');

/** A number as JSON spells it (a custom field value that may have been stored as a number). */
const JSON_NUMBER = /^-?(0|[1-9][0-9]{0,30})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,3})?$/;

function groupByName(pairs: { name: string; value: string }[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { name, value } of pairs) groups.set(name, [...new Set([...(groups.get(name) ?? []), value])]);
  return groups;
}

/** Beyond this many matches a filtered page's total is capped, with `total_exact: false`. */
export const TOTAL_EXACT_UP_TO = 10_000;

/** One SQL statement and its parameters. */
export interface Statement {
  text: string;
  values: unknown[];
}

export interface ProductQuery {
  /**
   * One row: `items`, the page's documents joined by commas; `ids`, its products in order; and, when
   * the counts give it (a few index entries), `total`, exact. Named when it is a store's whole listing
   * (a status, a sort, a projection at most): one of a few dozen texts, kept prepared on each
   * connection. Filtered pages vary in text and selectivity: planned each time for their values.
   */
  page: Statement & { name?: string };
  /** One row `{ total, exact }`: a total that must count rows, run beside the page on its own connection. */
  total?: Statement;
  /** One row of facet aggregates, when facets were asked for. */
  facets?: Statement;
}

/*
 * A prepared statement with LIMIT and OFFSET as parameters is planned anew on every run: its generic
 * plan is costed as if a tenth of the listing were read (a hash join over every document), so
 * PostgreSQL keeps choosing a custom one, planned for every page (docs/decisions/prepared-statements.md). With the window written
 * in, the generic plan is the custom one and PostgreSQL keeps it. The first 20 pages of a store's
 * whole listing (480 products at the default limit), where nearly every view lands, are written so;
 * the texts so made are bounded, first come (every pooled connection keeps each name it ran), and
 * any other page runs with its window as values.
 */
const WINDOWED_PAGES = 20;
const WINDOWED = new PreparedTexts(64);

/**
 * The statements of one page: what the handler runs, and what the benchmark runs bare. Filters
 * become listing terms (see domain/publication.ts) where they can: a category, an option value, a
 * custom field. A page unfiltered or filtered by one of them takes its exact total from the counts,
 * in the page's own statement (one round trip); any other filtered page counts its rows up to
 * TOTAL_EXACT_UP_TO + 1 in a statement of its own, and a price range alone first adds the counts of
 * the price buckets wholly in range (certain matches), stopping there when they are already more.
 */
export function productQuery(store: { store_id: string; tenant_id: string }, input: ListingInput, projection: Projection): ProductQuery {
  // The listing's filter, a condition a line in each statement that reads it.
  const filter = new Clause('\n    AND ');
  const storeId = filter.param(store.store_id);
  const tenantId = filter.param(store.tenant_id);
  filter.add`pub.store_id = ${storeId}`.add`pub.tenant_id = ${tenantId}`;
  const status = input.status ? filter.param(input.status) : null;
  if (status) filter.add`pub.status = ${status}`;
  // Terms a listing must all carry, groups of terms of which it must carry one, and (when the
  // filter is a single group of terms no listing carries two of) the terms whose counts add up to its total.
  const allOf: string[] = [];
  const anyOf: string[][] = [];
  let groups = 0;
  let counted: string[] | null = null;
  let uncountable = false;
  if (input.category) {
    groups++;
    allOf.push(`'c:' || ${filter.param(input.category)}`);
    counted = allOf.slice(-1);
  }
  if (input.collection) {
    uncountable = true;
    filter.add`pub.product_id IN (SELECT cp.product_id FROM catalog.collection co JOIN catalog.collection_product cp ON cp.collection_id = co.id
      WHERE co.tenant_id = ${tenantId} AND co.handle = ${input.collection})`;
  }
  const options = groupByName(input.options ?? []);
  for (const [name, vals] of options) {
    groups++;
    const n = filter.param(name);
    const terms = vals.map((v) => `catalog.listing_term('o', ${n}, to_jsonb(${filter.param(v)}::text)::text)`);
    if (terms.length === 1) allOf.push(terms[0]);
    else anyOf.push(terms);
    // Two values of one option may be on two SKUs of one product: their counts overlap.
    counted = terms.length === 1 ? terms : null;
  }
  const min = input.price_min !== undefined ? filter.param(input.price_min) : null;
  const max = input.price_max !== undefined ? filter.param(input.price_max) : null;
  if (min || max) {
    uncountable = true;
    // Alone, the listing's amounts (GiST): its estimate is close, so the planner walks the sort's
    // index and stops at the page. Adding the bounds below would multiply the estimates into a
    // few rows, and the planner would then fetch and sort every match.
    if (!options.size) filter.add`pub.amounts && int8range(${min ?? sqlText('NULL')}::int8, ${max ?? sqlText('NULL')}::int8, '[]')`;
    else {
      // With options, a SKU must hold both (below): the listing's bounds only narrow the search.
      if (min) filter.add`pub.price_max >= ${min}`;
      if (max) filter.add`pub.price_min <= ${max}`;
    }
  }
  // Several options, or options and a price, must hold on one SKU: the terms only narrow the search.
  if (options.size > 1 || (options.size && (min || max))) {
    uncountable = true;
    const single = new Map<string, string>();
    const sku: string[] = [];
    for (const [name, vals] of options) {
      if (vals.length === 1) single.set(name, vals[0]);
      else sku.push(`s.option_values ->> ${filter.param(name)} = ANY(${filter.param(vals)}::text[])`);
    }
    // A Map, then fromEntries: an option named `__proto__` must be a key like any other.
    if (single.size) sku.unshift(`s.option_values @> ${filter.param(JSON.stringify(Object.fromEntries(single)))}::jsonb`);
    if (min) sku.push(`s.amount >= ${min}`);
    if (max) sku.push(`s.amount <= ${max}`);
    filter.add`pub.product_id IN (SELECT s.product_id FROM catalog.sku s WHERE s.tenant_id = ${tenantId} AND ${sqlText(sku.join(' AND '))})`;
  }
  for (const [name, vals] of groupByName(input.custom_fields ?? [])) {
    groups++;
    const n = filter.param(name);
    // Each value as the text, the number or the boolean it spells: a product has one value per field, so these never overlap.
    const terms = vals.flatMap((v) => {
      const p = filter.param(v);
      return [
        `catalog.listing_term('f', ${n}, to_jsonb(${p}::text)::text)`,
        ...(JSON_NUMBER.test(v) ? [`catalog.listing_term('f', ${n}, trim_scale(${p}::numeric)::text)`] : []),
        ...(v === 'true' || v === 'false' ? [`catalog.listing_term('f', ${n}, ${p})`] : []),
      ];
    });
    if (terms.length === 1) allOf.push(terms[0]);
    else anyOf.push(terms);
    counted = terms;
  }
  if (allOf.length) filter.add`pub.terms @> ARRAY[${sqlText(allOf.join(', '))}]`;
  for (const group of anyOf) filter.add`pub.terms && ARRAY[${sqlText(group.join(', '))}]`;
  const whereSql = filter.sql;
  const filterValues = [...filter.params];

  // The counts of a store, one status or every one (each status a probe of the primary key).
  const countsWhere = `store_id = ${storeId} AND tenant_id = ${tenantId} AND status ${status ? `= ${status}` : `IN (${PRODUCT_STATUSES.map((s) => `'${s}'`).join(', ')})`}`;
  const countedTerms = !groups && !uncountable ? ["''"] : groups === 1 && !uncountable && counted ? counted : null;

  const limit = input.limit ?? 24;
  const pageNo = input.page ?? 1;
  const offset = (pageNo - 1) * limit;
  const sort = input.sort ?? 'newest';
  // The page rows carry their sort keys, so the documents are joined in the listing's order
  // without numbering every row the offset skips (a window over them slowed a page deep in a listing: docs/decisions/storefront-pages.md).
  const pageSql = (window: string) => `
    WITH page AS (
      SELECT ${ORDER[sort].map(([column]) => `pub.${column}`).join(', ')}
      FROM catalog.publication pub
      WHERE ${whereSql}
      ORDER BY ${orderOf(sort, 'pub')}
      ${window})
    SELECT coalesce(string_agg(d.${projection === 'full' ? 'full_json' : 'feed_json'}, ',' ORDER BY ${orderOf(sort, 'page')}), '') AS items,
      coalesce(string_agg(page.product_id, ',' ORDER BY ${orderOf(sort, 'page')}), '') AS ids${
        countedTerms
          ? `,
      (SELECT coalesce(sum(published), 0)::int FROM catalog.listing_count WHERE ${countsWhere} AND term = ANY(ARRAY[${countedTerms.join(', ')}])) AS total`
          : ''
      }
    FROM page JOIN catalog.product_document d ON d.product_id = page.product_id`;
  // A store's whole listing (some status, sort and projection) is one of a few texts: kept prepared;
  // its first pages with their window written in (see WINDOWED), any other with the window as values.
  const everyListing = !groups && !uncountable;
  const windowed =
    everyListing && pageNo <= WINDOWED_PAGES && Number.isSafeInteger(limit) && Number.isSafeInteger(offset) ? pageSql(`LIMIT ${limit} OFFSET ${offset}`) : null;
  const windowedName = windowed === null ? undefined : WINDOWED.name(windowed);
  const pageText = windowed !== null && windowedName ? windowed : pageSql(`LIMIT ${filter.param(limit)} OFFSET ${filter.param(offset)}`);
  const pageName = windowed !== null && windowedName ? windowedName : everyListing ? preparedName(pageText) : undefined;

  let total: Statement | undefined;
  if (!countedTerms) {
    const capped = `(SELECT count(*) FROM (SELECT 1 FROM catalog.publication pub WHERE ${whereSql} LIMIT ${TOTAL_EXACT_UP_TO + 1}) x)`;
    let counting = capped;
    let countValues = filterValues;
    if ((min || max) && !groups && !input.collection) {
      // Listings whose lowest price lies in a price bucket wholly in range match for sure: their
      // counts, a few index entries, say when there are more than TOTAL_EXACT_UP_TO without a row visited.
      const certainValues = conditions(filterValues);
      const terms = certainValues.param(priceTermsWithin(input.price_min ?? 0, input.price_max ?? Number.MAX_SAFE_INTEGER));
      countValues = certainValues.params;
      const certain = `(SELECT coalesce(sum(published), 0) FROM catalog.listing_count WHERE ${countsWhere} AND term = ANY(${terms}::text[]))`;
      counting = `CASE WHEN ${certain} > ${TOTAL_EXACT_UP_TO} THEN ${TOTAL_EXACT_UP_TO + 1} ELSE ${capped} END`;
    }
    total = {
      text: `SELECT least(n, ${TOTAL_EXACT_UP_TO})::int AS total, n <= ${TOTAL_EXACT_UP_TO} AS exact FROM (SELECT ${counting} AS n) c`,
      values: countValues,
    };
  }

  const asked = new Set(input.facets ?? []);
  // The whole store (or one status of it): option and custom field facets are its listing counts,
  // whose terms spell the name and the value as JSON (domain/publication.ts), not a pass over every product.
  const fromTerms = (kind: 'o' | 'f', alias: string) => `(SELECT coalesce(json_agg(json_build_array(name, value, n)), '[]') FROM (
        SELECT m[1]::jsonb #>> '{}' AS name, m[2]::jsonb #>> '{}' AS value, sum(lc.published)::int AS n
        FROM catalog.listing_count lc CROSS JOIN regexp_match(lc.term, '^${kind}:("(?:[^"\\\\]|\\\\.)*")=(.*)$') m
        WHERE lc.store_id = ${storeId} AND lc.tenant_id = ${tenantId}${status ? ` AND lc.status = ${status}` : ''} AND lc.term LIKE '${kind}:%' AND lc.published > 0
        GROUP BY 1, 2) x) AS ${alias}`;
  let facetsQuery: ProductQuery['facets'];
  if (asked.size) {
    const parts: string[] = [];
    if (asked.has('options')) {
      parts.push(
        everyListing
          ? fromTerms('o', 'options')
          : `(SELECT coalesce(json_agg(json_build_array(name, value, n)), '[]') FROM (
        SELECT e.key AS name, e.value AS value, count(DISTINCT s.product_id)::int AS n
        FROM matched JOIN catalog.sku s ON s.product_id = matched.product_id CROSS JOIN jsonb_each_text(s.option_values) e
        GROUP BY 1, 2) x) AS options`,
      );
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
      parts.push(
        everyListing
          ? fromTerms('f', 'custom_fields')
          : // A number as its term spells it (2.50 is 2.5), whichever way the facet is counted.
            `(SELECT coalesce(json_agg(json_build_array(name, value, n)), '[]') FROM (
        SELECT f.key AS name, CASE jsonb_typeof(f.value) WHEN 'number' THEN trim_scale(f.value::numeric)::text ELSE f.value #>> '{}' END AS value, count(*)::int AS n
        FROM matched JOIN catalog.product p ON p.id = matched.product_id CROSS JOIN jsonb_each(p.custom_fields) f
        WHERE jsonb_typeof(f.value) IN ('string', 'number', 'boolean')
        GROUP BY 1, 2) x) AS custom_fields`,
      );
    }
    facetsQuery = {
      text: `WITH matched AS MATERIALIZED (SELECT pub.product_id, pub.price_min FROM catalog.publication pub WHERE ${whereSql})
        SELECT ${parts.join(',\n        ')}`,
      values: filterValues,
    };
  }
  const page = { text: pageText, values: filter.params, ...(pageName ? { name: pageName } : {}) };
  return { page, ...(total ? { total } : {}), ...(facetsQuery ? { facets: facetsQuery } : {}) };
}

// ---------------------------------------------------------------------------------------------
// Facets as served
// ---------------------------------------------------------------------------------------------

function valueFacet(rows: [string, string, number][]) {
  const byName = new Map<string, { value: string; count: number }[]>();
  for (const [name, value, count] of rows) {
    let list = byName.get(name);
    if (!list) {
      list = [];
      byName.set(name, list);
    }
    list.push({ value, count });
  }
  return [...byName.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, FACET_NAMES_MAX)
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
