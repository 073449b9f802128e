import { connectionArgs, connectionOf, mapNodes, t, conditions } from '@backoffice/platform';
import { METHOD_COLUMNS, methodOut, methodView, type MethodRow } from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

/** The admin's shipping method list as a Relay connection (GraphQL only). */
export const adminShippingMethods = defineOrdersOperation({
  name: 'admin.shipping_methods',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary: 'The tenant’s shipping methods as a Relay connection, oldest first unless ordered otherwise; filters by active.',
  connection: { field: 'shipping_methods' },
  input: connectionArgs('ShippingMethod', ['created_at', 'name'] as const, t.object({ active: t.optional(t.boolean()) })),
  result: connectionOf(methodView, 'ShippingMethod'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`m.tenant_id = ${actor.tenant_id}`;
    const active = input.filter?.active;
    if (active !== undefined) where.add`m.active = ${active}`;
    const page = await sql.connection<MethodRow>(
      {
        select: METHOD_COLUMNS,
        from: 'orders.shipping_method m',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'm.created_at', type: 'timestamptz' }, name: { sql: 'm.name', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 'm.id',
      },
      input,
    );
    return mapNodes(page, methodOut);
  },
});
