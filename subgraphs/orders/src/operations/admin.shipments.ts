import { connectionArgs, connectionOf, mapNodes, t, conditions } from '@backoffice/platform';
import { SHIPMENT_COLUMNS, shipmentNode, shipmentOf, type ShipmentRow } from '../domain/order-entity';
import { MACHINES } from '../domain/states';
import { defineOrdersOperation } from '../ports';

/** The admin's shipment list (parcels of every order) as a Relay connection (GraphQL only). */
export const adminShipments = defineOrdersOperation({
  name: 'admin.shipments',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary:
    'The tenant’s shipments as a Relay connection, newest first unless ordered otherwise; filters by status, order and warehouse. ' +
    'Each node is the `Shipment`: its items and order load only when selected.',
  connection: { field: 'shipments' },
  input: connectionArgs(
    'Shipment',
    ['created_at'] as const,
    t.object({
      status: t.optional(MACHINES.shipment.enum()),
      order_id: t.optional(t.id()),
      warehouse_id: t.optional(t.id()),
    }),
  ),
  result: connectionOf(shipmentNode, 'Shipment'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`s.tenant_id = ${actor.tenant_id}`;
    const { status, order_id, warehouse_id } = input.filter ?? {};
    if (status) where.add`s.status = ${status}`;
    if (order_id) where.add`s.order_id = ${order_id}`;
    if (warehouse_id) where.add`s.warehouse_id = ${warehouse_id}`;
    const page = await sql.connection<ShipmentRow>(
      {
        select: SHIPMENT_COLUMNS,
        from: 'orders.shipment s',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 's.created_at', type: 'timestamptz' } },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 's.id',
      },
      input,
    );
    return mapNodes(page, shipmentOf);
  },
});
