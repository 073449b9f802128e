import { t, pageOf } from '@backoffice/platform';
import { ZONE_COLUMNS, zoneOf, zoneView, type ZoneRow } from '../domain/admin-views';
import { normalizePostalCode, postalCodeInput } from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

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
  result: pageOf(zoneView),
  events: [],
  async handler({ input, actor, sql }) {
    const code = input.postal_code === undefined ? null : normalizePostalCode(input.postal_code);
    const page = await sql.page<ZoneRow>(
      {
        select: ZONE_COLUMNS,
        from: 'orders.shipping_zone',
        where: `tenant_id = $1 AND ($2::text IS NULL OR (length(postal_code_from) = length($2) AND postal_code_from <= $2 AND postal_code_to >= $2))`,
        orderBy: 'created_at, id',
        params: [actor.tenant_id, code],
      },
      input,
    );
    return { ...page, items: page.items.map(zoneOf) };
  },
});
