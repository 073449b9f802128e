import { projectTo, resultProblem, t, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { productStatus } from './products';
import { CATALOG_LIMITS } from './catalog-limits';

/**
 * A product document as every catalog read serves it (`read.products`, the admin reads, the
 * `Product` and `Sku` entities): its schema, the SQL that builds it, its shaping, and its rendering
 * ahead of time (`renderDocuments`: the text `read.products` sends).
 */

export const MEDIA_KINDS = ['image', 'document', 'video_external'] as const;
/** A media's kind: one GraphQL enum wherever it shows. */
export const mediaKind = (options: { default?: (typeof MEDIA_KINDS)[number] } = {}) => t.enum(MEDIA_KINDS, { ...options, name: 'MediaKind' });

const feedMedia = t.object({ kind: mediaKind(), url: t.optional(t.string()) });
const promotionalPrice = t.object({ unit_amount: t.integer(), promotional_amount: t.integer() });
const feedCategory = t.object({ category_id: t.string(), path: t.string(), is_primary: t.boolean() });

export const feedSkuFields = {
  id: t.string(),
  code: t.string(),
  amount: t.integer(),
  currency: t.string(),
  status: t.string(),
  name: t.nullable(t.string()),
  ean: t.nullable(t.string()),
  compare_at_amount: t.nullable(t.integer()),
  media: t.array(feedMedia, { maxItems: CATALOG_LIMITS.skuMedia.max }),
  promotional_price: t.optional(promotionalPrice),
};

export const feedProductFields = {
  product_id: t.string(),
  title: t.string(),
  description: t.nullable(t.string()),
  handle: t.string(),
  status: productStatus(),
  metadata: t.json(),
  brand_id: t.nullable(t.string()),
  categories: t.array(feedCategory, { maxItems: CATALOG_LIMITS.categories.max }),
  media: t.array(feedMedia, { maxItems: CATALOG_LIMITS.productMedia.max }),
};

const media = t.object({
  kind: mediaKind(),
  url: t.optional(t.string({ description: 'absent when the media has no public address' })),
  media_id: t.string(),
  provider_key: t.string(),
  alt: t.nullable(t.string()),
  position: t.integer(),
  role: t.nullable(t.string()),
});

export const sku = t.entity(
  'Sku',
  {
    ...feedSkuFields,
    media: t.array(media, { maxItems: CATALOG_LIMITS.skuMedia.max }),
    sku_id: t.string({ description: 'same as id' }),
    is_default: t.boolean(),
    ref: t.nullable(t.string()),
    metadata: t.optional(t.json({ description: 'absent under projection feed' })),
    option_values: t.optional(t.array(t.object({ option: t.string(), value: t.string() }), { maxItems: CATALOG_LIMITS.options.max })),
  },
  'sku_id',
);

const option = t.object({
  option_id: t.string(),
  name: t.string(),
  values: t.array(t.string(), { maxItems: CATALOG_LIMITS.optionValues.max }),
  default_value: t.string(),
  position: t.integer(),
});

export const feedProduct = t.object({ ...feedProductFields, skus: t.array(t.object(feedSkuFields), { maxItems: CATALOG_LIMITS.skus.max }) });

export const product = t.entity(
  'Product',
  {
    ...feedProductFields,
    categories: t.array(t.object({ category_id: t.string(), path: t.string(), is_primary: t.boolean(), name: t.string() }), {
      maxItems: CATALOG_LIMITS.categories.max,
    }),
    media: t.array(media, { maxItems: CATALOG_LIMITS.productMedia.max }),
    skus: t.array(sku, { maxItems: CATALOG_LIMITS.skus.max }),
    options: t.optional(t.array(option, { maxItems: CATALOG_LIMITS.options.max })),
    custom_fields: t.optional(t.record({ description: 'absent under projection feed' })),
    rich_content: t.optional(t.nullable(t.json({ description: 'absent under projection feed' }))),
    price_min: t.nullable(t.integer({ description: 'lowest SKU amount' })),
    price_max: t.nullable(t.integer({ description: 'highest SKU amount' })),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  },
  'product_id',
);

/** A SQL value in UTC as the documents write times: ISO 8601 with microseconds. */
const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/*
 * A SKU's and a product's own fields, each the SQL of its value (alias `s` for a SKU, `p` for a
 * product): the documents, the heads, the card and any narrower projection are all built from these.
 */
const SKU_FIELDS = {
  id: 's.id',
  code: 's.code',
  amount: 's.amount',
  currency: 's.currency',
  status: 's.status',
  name: 's.name',
  ean: 's.ean',
  compare_at_amount: 's.compare_at_amount',
};
const SKU_TAIL = { promotional_amount: 's.promotional_amount', sku_id: 's.id', is_default: 's.is_default', ref: 's.ref' };
const SKU_HEAD: Record<string, string> = { ...SKU_FIELDS, ...SKU_TAIL, metadata: 's.metadata' };
const PRODUCT_TAIL = {
  price_min: 'p.price_min::float8',
  price_max: 'p.price_max::float8',
  created_at: utc('p.created_at'),
  updated_at: utc('p.updated_at'),
};
/** A product's card: what an order item's product shows (no description, metadata, custom fields nor rich content). */
const PRODUCT_CARD: Record<string, string> = {
  product_id: 'p.id',
  title: 'p.title',
  handle: 'p.handle',
  status: 'p.status',
  brand_id: 'p.brand_id',
  ...PRODUCT_TAIL,
};

/** `'name', value, …` for json_build_object. */
const pairs = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, sql]) => `'${name}', ${sql}`)
    .join(', ');
/** `value AS name, …` for a SELECT list. */
const columns = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([name, sql]) => `${sql} AS ${name}`)
    .join(', ');

/**
 * The SQL that builds product and SKU documents (alias `p` for the product, `s` for a SKU): shared by
 * the public read, the admin reads and the entity resolvers. `full: false` leaves out what the feed
 * does not carry. The heads (`skuHead`, `productHead`) are the same documents without their lists
 * (media, option values; categories, media, SKUs, options), each a subquery per row: what an entity
 * reference selecting none of them reads (see `DOCUMENT_LISTS`).
 */
export function documentSql(full: boolean): { skuObject: string; productColumns: string; skuHead: string; productHead: string } {
  const mediaObject = `json_build_object('kind', m.kind, 'url', m.url, 'media_id', m.id, 'provider_key', m.provider_key, 'alt', m.alt, 'position', m.position, 'role', m.role)`;
  const skuMedia = `(SELECT coalesce(json_agg(${mediaObject} ORDER BY m.position, m.id), '[]')
          FROM catalog.media m WHERE m.owner_type = 'sku' AND m.owner_id = s.id)`;
  const skuFields = pairs(SKU_FIELDS);
  const skuTail = pairs(SKU_TAIL);
  // Under feed, the heavy parts nobody asked for stay in the database: options, custom fields, rich
  // content, SKU metadata and option values.
  const skuObject = `json_build_object(${skuFields}, 'media', ${skuMedia}, ${skuTail}${
    full
      ? `, 'metadata', s.metadata,
          'option_values', (SELECT coalesce(json_agg(json_build_object('option', e.key, 'value', e.value) ORDER BY o.position NULLS LAST, e.key), '[]')
            FROM jsonb_each_text(s.option_values) e LEFT JOIN catalog.option o ON o.product_id = s.product_id AND o.name = e.key)`
      : ''
  })`;
  const productFields = 'p.id AS product_id, p.title, p.description, p.handle, p.status, p.metadata, p.brand_id';
  const productTail = columns(PRODUCT_TAIL);
  const productColumns = `${productFields},
      (SELECT coalesce(json_agg(json_build_object('category_id', c.id, 'path', c.path::text, 'is_primary', pc.is_primary, 'name', c.name)
          ORDER BY pc.is_primary DESC, c.path), '[]')
        FROM catalog.product_category pc JOIN catalog.category c ON c.id = pc.category_id WHERE pc.product_id = p.id) AS categories,
      (SELECT coalesce(json_agg(${mediaObject} ORDER BY m.position, m.id), '[]')
        FROM catalog.media m WHERE m.product_id = p.id AND m.owner_type = 'product') AS media,
      (SELECT coalesce(json_agg(${skuObject} ORDER BY s.position, s.id), '[]') FROM catalog.sku s WHERE s.product_id = p.id) AS skus,
      ${productTail}${
        full
          ? `,
      (SELECT coalesce(json_agg(json_build_object('option_id', o.id, 'name', o.name, 'values', o."values", 'default_value', o.default_value, 'position', o.position)
          ORDER BY o.position, o.id), '[]') FROM catalog.option o WHERE o.product_id = p.id) AS options,
      p.custom_fields, p.rich_content`
          : ''
      }`;
  const skuHead = `json_build_object(${skuFields}, ${skuTail}${full ? ", 'metadata', s.metadata" : ''})`;
  const productHead = `${productFields}, ${productTail}${full ? ', p.custom_fields, p.rich_content' : ''}`;
  return { skuObject, productColumns, skuHead, productHead };
}

/** The fields of `fields` a selection asks (by its field names), `always` included, in declaration order. */
function picked(fields: Record<string, string>, names: ReadonlySet<string>, always: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).filter(([name]) => name === always || names.has(name)));
}

/** The names a SKU selection asks that its head holds (a promotional price is made of its amounts). */
function skuNames(names: ReadonlySet<string>): ReadonlySet<string> {
  return names.has('promotional_price') ? new Set([...names, 'amount', 'promotional_amount']) : names;
}

/**
 * A SKU head narrowed to the fields a selection asks (its key always), as one JSON value, and, when
 * given, its product's card narrowed likewise (`product`, joined as `p`): an order item's SKU code
 * and product title read two small values, not the whole head and card. Links (product, shipping
 * facts) are the resolvers', which need only the key.
 */
export function skuProjection(sku: ReadonlySet<string>, product: ReadonlySet<string> | null): { doc: string; product: string | null } {
  return {
    doc: `json_build_object(${pairs(picked(SKU_HEAD, skuNames(sku), 'sku_id'))})`,
    product: product && `json_build_object(${pairs(picked(PRODUCT_CARD, product, 'product_id'))})`,
  };
}

/** A product's card narrowed to the fields a selection asks (its key always), as a SELECT list. */
export const productCardColumns = (names: ReadonlySet<string>): string => columns(picked(PRODUCT_CARD, names, 'product_id'));

/** The SKU fields a head holds, and the product fields a card holds (with the entities' `id` and `__typename`). */
export const SKU_HEAD_FIELDS: ReadonlySet<string> = new Set([...Object.keys(SKU_HEAD), 'promotional_price']);
const CARD_FIELDS: ReadonlySet<string> = new Set(['__typename', 'id', ...Object.keys(PRODUCT_CARD)]);

/** Whether a product selection (its field names) asks nothing its card does not hold. */
export function withinCard(names: ReadonlySet<string>): boolean {
  for (const name of names) if (!CARD_FIELDS.has(name)) return false;
  return true;
}

/** The fields of each document that its head leaves out (lists read by a subquery per row). */
export const DOCUMENT_LISTS = { Sku: ['media', 'option_values'], Product: ['categories', 'media', 'skus', 'options'] } as const;

export type Row = Record<string, unknown> & { media: Record<string, unknown>[]; skus: Record<string, unknown>[] };

/*
 * Shaping copies instead of deleting: `delete` turns an object into a slow dictionary, which every
 * later read of it pays (an order list's SKU references: docs/decisions/order-list.md).
 */

function shapeMedia(items: Record<string, unknown>[]): Record<string, unknown>[] {
  return items.map((m) => {
    if (m.url !== null) return m;
    const { url: _absent, ...rest } = m;
    return rest;
  });
}

/** A SKU document as served: a promotional price only when there is a promotion. */
export function shapeSku(doc: Record<string, unknown>): Record<string, unknown> {
  const { promotional_amount: promotional, ...s } = doc;
  if (s.media) s.media = shapeMedia(s.media as Record<string, unknown>[]);
  if (promotional !== null && promotional !== undefined) s.promotional_price = { unit_amount: s.amount, promotional_amount: promotional };
  return s;
}

/** Optional keys are absent rather than null: media without a URL, SKUs without a promotional amount. */
export function shapeItems(rows: Row[]): Row[] {
  for (const row of rows) {
    row.media = shapeMedia(row.media);
    row.skus = row.skus.map(shapeSku);
  }
  return rows;
}

/**
 * JSON text in ASCII: every character past U+007F as its `\\u` escape (the same JSON value). The
 * read joins documents into pages as text: a page of ASCII stays a one-byte string in V8, which the
 * driver decodes and the answer encodes several times faster than a two-byte one (one en dash in a
 * SKU's name turns a whole page into two-byte text).
 */
export const asciiJson = (text: string): string => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** Products rendered per statement: a bulk change (a seed, a migration) goes in slices of this many. */
const RENDER_SLICE = 500;

/**
 * Renders products' documents, full and feed, as the text `read.products` sends (ASCII JSON), each
 * checked against its schema here (the read sends it as is). Called for every product a committed change
 * touched (see derived.ts), and by the seed and the migration that introduced them.
 */
export async function renderDocuments(db: EntityManager, productIds: readonly string[]): Promise<void> {
  const { productColumns } = documentSql(true);
  const sql = sqlOf(db);
  for (let from = 0; from < productIds.length; from += RENDER_SLICE) {
    const slice = productIds.slice(from, from + RENDER_SLICE);
    const rows = await sql.rows<Row>(`SELECT p.tenant_id AS rendered_for, ${productColumns} FROM catalog.product p WHERE p.id = ANY($1::text[])`, [slice]);
    const ids: string[] = [];
    const tenants: string[] = [];
    const full: string[] = [];
    const feed: string[] = [];
    for (const { rendered_for: tenant, ...row } of shapeItems(rows)) {
      tenants.push(tenant as string);
      const problem = resultProblem(product, row);
      if (problem) throw new Error(`the document of product ${String(row.product_id)} is outside its schema: ${problem}`);
      ids.push(row.product_id as string);
      full.push(asciiJson(JSON.stringify(row)));
      feed.push(asciiJson(JSON.stringify(projectTo(feedProduct, row))));
    }
    await sql.run(
      `INSERT INTO catalog.product_document (product_id, tenant_id, full_json, feed_json)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT (product_id) DO UPDATE SET full_json = excluded.full_json, feed_json = excluded.feed_json`,
      [ids, tenants, full, feed],
    );
  }
}
