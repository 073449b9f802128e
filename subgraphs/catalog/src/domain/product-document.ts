import { projectTo, resultProblem, t, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { productStatus } from './products';

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
  media: t.array(feedMedia),
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
  categories: t.array(feedCategory),
  media: t.array(feedMedia),
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
    media: t.array(media),
    sku_id: t.string({ description: 'same as id' }),
    is_default: t.boolean(),
    ref: t.nullable(t.string()),
    metadata: t.optional(t.json({ description: 'absent under projection feed' })),
    option_values: t.optional(t.array(t.object({ option: t.string(), value: t.string() }), {})),
  },
  'sku_id',
);

const option = t.object({ option_id: t.string(), name: t.string(), values: t.array(t.string()), default_value: t.string(), position: t.integer() });

export const feedProduct = t.object({ ...feedProductFields, skus: t.array(t.object(feedSkuFields)) });

export const product = t.entity(
  'Product',
  {
    ...feedProductFields,
    categories: t.array(t.object({ category_id: t.string(), path: t.string(), is_primary: t.boolean(), name: t.string() })),
    media: t.array(media),
    skus: t.array(sku),
    options: t.optional(t.array(option)),
    custom_fields: t.optional(t.record({ description: 'absent under projection feed' })),
    rich_content: t.optional(t.nullable(t.json({ description: 'absent under projection feed' }))),
    price_min: t.nullable(t.integer({ description: 'lowest SKU amount' })),
    price_max: t.nullable(t.integer({ description: 'highest SKU amount' })),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  },
  'product_id',
);

/**
 * The SQL that builds product and SKU documents (alias `p` for the product, `s` for a SKU): shared by
 * the public read, the admin reads and the entity resolvers. `full: false` leaves out what the feed
 * does not carry. The heads (`skuHead`, `productHead`) are the same documents without their lists
 * (media, option values; categories, media, SKUs, options), each a subquery per row: what an entity
 * reference selecting none of them reads (see `DOCUMENT_LISTS`).
 */
export function documentSql(full: boolean): { skuObject: string; productColumns: string; skuHead: string; productHead: string; productCard: string } {
  const mediaObject = `json_build_object('kind', m.kind, 'url', m.url, 'media_id', m.id, 'provider_key', m.provider_key, 'alt', m.alt, 'position', m.position, 'role', m.role)`;
  const skuMedia = `(SELECT coalesce(json_agg(${mediaObject} ORDER BY m.position, m.id), '[]')
          FROM catalog.media m WHERE m.owner_type = 'sku' AND m.owner_id = s.id)`;
  const skuFields = `'id', s.id, 'code', s.code, 'amount', s.amount, 'currency', s.currency, 'status', s.status, 'name', s.name, 'ean', s.ean,
          'compare_at_amount', s.compare_at_amount`;
  const skuTail = `'promotional_amount', s.promotional_amount, 'sku_id', s.id, 'is_default', s.is_default, 'ref', s.ref`;
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
  const productTail = `p.price_min::float8 AS price_min, p.price_max::float8 AS price_max,
      to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created_at,
      to_char(p.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated_at`;
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
  const productCard = `p.id AS product_id, p.title, p.handle, p.status, p.brand_id, ${productTail}`;
  return { skuObject, productColumns, skuHead, productHead, productCard };
}

/**
 * The product fields its card holds (`productCard`): a selection asking none other (an order item's
 * product title) reads the card, without the head's description, metadata and rich content.
 */
const CARD_FIELDS: ReadonlySet<string> = new Set([
  '__typename',
  'id',
  'product_id',
  'title',
  'handle',
  'status',
  'brand_id',
  'price_min',
  'price_max',
  'created_at',
  'updated_at',
]);

/** Whether a product selection (its field names) asks nothing its card does not hold. */
export function withinCard(names: ReadonlySet<string>): boolean {
  for (const name of names) if (!CARD_FIELDS.has(name)) return false;
  return true;
}

/** The fields of each document that its head leaves out (lists read by a subquery per row). */
export const DOCUMENT_LISTS = { Sku: ['media', 'option_values'], Product: ['categories', 'media', 'skus', 'options'] } as const;

export type Row = Record<string, unknown> & { media: Record<string, unknown>[]; skus: Record<string, unknown>[] };

function shapeMedia(items: Record<string, unknown>[]): void {
  for (const m of items) if (m.url === null) delete m.url;
}

/** A SKU document as served: a promotional price only when there is a promotion. */
export function shapeSku(s: Record<string, unknown>): Record<string, unknown> {
  if (s.media) shapeMedia(s.media as Record<string, unknown>[]);
  if (s.promotional_amount !== null && s.promotional_amount !== undefined) {
    s.promotional_price = { unit_amount: s.amount, promotional_amount: s.promotional_amount };
  }
  delete s.promotional_amount;
  return s;
}

/** Optional keys are absent rather than null: media without a URL, SKUs without a promotional amount. */
export function shapeItems(rows: Row[]): Row[] {
  for (const row of rows) {
    shapeMedia(row.media);
    for (const s of row.skus) shapeSku(s);
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
  for (let from = 0; from < productIds.length; from += RENDER_SLICE) {
    const slice = productIds.slice(from, from + RENDER_SLICE);
    const rows = await sqlOf(db).rows<Row>(`SELECT p.tenant_id AS rendered_for, ${productColumns} FROM catalog.product p WHERE p.id = ANY($1::text[])`, [
      slice,
    ]);
    const ids: string[] = [];
    const tenants: string[] = [];
    const full: string[] = [];
    const feed: string[] = [];
    for (const row of shapeItems(rows)) {
      tenants.push(row.rendered_for as string);
      delete row.rendered_for;
      const problem = resultProblem(product, row);
      if (problem) throw new Error(`the document of product ${String(row.product_id)} is outside its schema: ${problem}`);
      ids.push(row.product_id as string);
      full.push(asciiJson(JSON.stringify(row)));
      feed.push(asciiJson(JSON.stringify(projectTo(feedProduct, row))));
    }
    await db.query(
      `INSERT INTO catalog.product_document (product_id, tenant_id, full_json, feed_json)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT (product_id) DO UPDATE SET full_json = excluded.full_json, feed_json = excluded.feed_json`,
      [ids, tenants, full, feed],
    );
  }
}
