import { t, pageOf } from '@backoffice/platform';
import { normalizePostalCode, postalCodeInput } from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

const zone = t.entity('ShippingZone', {
  zone_id: t.string(),
  name: t.string(),
  postal_code_from: t.string({ description: 'normalized' }),
  postal_code_to: t.string({ description: 'normalized; the range is inclusive' }),
  created_at: t.timestamp(),
});

export const readInternalShippingZones = defineOrdersOperation({
  name: 'read.internal.shipping.zones',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary: 'The tenant’s shipping zones, oldest first; `postal_code` keeps those containing it (normalized first) (extension).',
  restPath: '/internal/shipping/zones',
  input: t.object({
    postal_code: t.optional(postalCodeInput('only the zones containing it; normalized as on write')),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOf(zone),
  events: [],
  async handler({ input, actor, sql }) {
    const code = input.postal_code === undefined ? null : normalizePostalCode(input.postal_code);
    const page = await sql.page<{ zone_id: string; name: string; postal_code_from: string; postal_code_to: string; created_at: Date }>(
      {
        select: 'id AS zone_id, name, postal_code_from, postal_code_to, created_at',
        from: 'orders.shipping_zone',
        where: `tenant_id = $1 AND ($2::text IS NULL OR (length(postal_code_from) = length($2) AND postal_code_from <= $2 AND postal_code_to >= $2))`,
        orderBy: 'created_at, id',
        params: [actor.tenant_id, code],
      },
      input,
    );
    return { ...page, items: page.items.map((r) => ({ ...r, created_at: r.created_at.toISOString() })) };
  },
});
