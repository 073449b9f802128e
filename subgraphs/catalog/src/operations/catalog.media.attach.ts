import { assertRoom, conflict, newId, t, sqlOf } from '@backoffice/platform';
import { CATALOG_LIMITS } from '../domain/catalog-limits';
import { productUpdated, skuUpdated } from '../events';
import { defineCatalogOperation } from '../ports';
import { mediaKind } from '../domain/product-document';

/** What a media belongs to: one GraphQL enum in the input and the result. */
const ownerType = t.enum(['product', 'sku'] as const, { name: 'MediaOwnerType' });

/** A provider key that is itself a web address is served as the media URL. */
const urlOf = (providerKey: string) => (/^https?:\/\//i.test(providerKey) ? providerKey : null);

export const catalogMediaAttach = defineCatalogOperation({
  name: 'catalog.media.attach',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Attaches a media reference to a product or a SKU; attaching the same provider key again updates it.',
  input: t.object({
    owner_type: ownerType,
    owner_id: t.id(),
    provider_key: t.string({ minLength: 1, maxLength: 2000 }),
    kind: t.optional(mediaKind({ default: 'image' })),
    alt: t.optional(t.string({ maxLength: 1000 })),
    position: t.optional(t.integer({ minimum: 0, maximum: 2_147_483_647 })),
    role: t.optional(t.string({ maxLength: 100 })),
  }),
  // Open (the reference); GraphQL types the declared fields, which are all it answers.
  result: t.openObject({ media_id: t.string(), owner_type: ownerType, owner_id: t.string(), product_id: t.string(), kind: mediaKind(), position: t.integer() }),
  events: [productUpdated, skuUpdated],
  async handler({ input, actor, db, emit }) {
    const [owner] = await sqlOf(db).rows<{ product_id: string }>(
      input.owner_type === 'product'
        ? `SELECT id AS product_id FROM catalog.product WHERE id = $1 AND tenant_id = $2 FOR UPDATE`
        : `SELECT product_id FROM catalog.sku WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [input.owner_id, actor.tenant_id],
    );
    if (!owner) throw conflict(`${input.owner_type} ${input.owner_id} does not exist in this tenant`, { reason: 'not_found', field: 'owner_id' });
    // Attaching a provider key again updates its media: only a new one needs room.
    await assertRoom(db, input.owner_type === 'product' ? CATALOG_LIMITS.productMedia : CATALOG_LIMITS.skuMedia, {
      sql: 'SELECT count(*)::int AS n FROM catalog.media WHERE product_id = $1 AND owner_type = $2 AND owner_id = $3 AND provider_key <> $4',
      params: [owner.product_id, input.owner_type, input.owner_id, input.provider_key],
    });
    const kind = input.kind ?? 'image';
    const [media] = await sqlOf(db).rows<{ id: string; position: number }>(
      `INSERT INTO catalog.media (id, tenant_id, product_id, owner_type, owner_id, provider_key, kind, url, alt, position, role)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9,
               coalesce($10, (SELECT coalesce(max(position), -1) + 1 FROM catalog.media WHERE owner_type = $4 AND owner_id = $5)), $11)
       ON CONFLICT (owner_type, owner_id, provider_key) DO UPDATE
         SET kind = excluded.kind, alt = excluded.alt, role = excluded.role,
             position = coalesce($10, catalog.media.position)
       RETURNING id, position`,
      [
        newId('med'),
        actor.tenant_id,
        owner.product_id,
        input.owner_type,
        input.owner_id,
        input.provider_key,
        kind,
        urlOf(input.provider_key),
        input.alt ?? null,
        input.position ?? null,
        input.role ?? null,
      ],
    );
    // A product's media changes the product; a SKU's media changes the SKU.
    if (input.owner_type === 'product') emit(productUpdated, { product_id: owner.product_id, changed: ['media'], media_id: media.id });
    else emit(skuUpdated, { sku_id: input.owner_id, product_id: owner.product_id, changed: ['media'], media_id: media.id });
    return { media_id: media.id, owner_type: input.owner_type, owner_id: input.owner_id, product_id: owner.product_id, kind, position: media.position };
  },
});
