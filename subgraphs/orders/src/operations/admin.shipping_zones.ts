import { connectionArgs, connectionOf, mapNodes } from '@backoffice/platform';
import { ZONE_COLUMNS, zoneOf, zoneView, type ZoneRow } from '../domain/admin-views';
import { defineOrdersOperation } from '../ports';

/** The admin's shipping zone list as a Relay connection (GraphQL only). */
export const adminShippingZones = defineOrdersOperation({
  name: 'admin.shipping_zones',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary: 'The tenant’s shipping zones as a Relay connection, oldest first unless ordered otherwise.',
  connection: { field: 'shipping_zones' },
  input: connectionArgs('ShippingZone', ['created_at', 'name'] as const),
  result: connectionOf(zoneView, 'ShippingZone'),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.connection<ZoneRow>(
      {
        select: ZONE_COLUMNS,
        from: 'orders.shipping_zone',
        where: 'tenant_id = $1',
        params: [actor.tenant_id],
        sorts: { created_at: { sql: 'created_at', type: 'timestamptz' }, name: { sql: 'name', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 'id',
      },
      input,
    );
    return mapNodes(page, zoneOf);
  },
});
