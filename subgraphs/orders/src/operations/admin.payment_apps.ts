import { connectionArgs, connectionOf, mapNodes, t, conditions } from '@backoffice/platform';
import { PAYMENT_APP_COLUMNS, paymentAppOf, paymentAppView, storeWindowsOf, type AppRow } from '../domain/admin-views';
import { defineOrdersOperation } from '../ports';

/** The admin's payment app list as a Relay connection (GraphQL only). */
export const adminPaymentApps = defineOrdersOperation({
  name: 'admin.payment_apps',
  kind: 'read',
  access: 'internal',
  // No read scope of their own: the apps are read with the orders that name them.
  scope: 'order.read',
  summary:
    'The tenant’s payment apps with their methods and the stores’ windows for them as a Relay connection, oldest first unless ordered otherwise; filters by installed.',
  connection: { field: 'payment_apps' },
  input: connectionArgs('PaymentApp', ['created_at', 'name'] as const, t.object({ installed: t.optional(t.boolean()) })),
  result: connectionOf(paymentAppView, 'PaymentApp'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`a.tenant_id = ${actor.tenant_id}`;
    const installed = input.filter?.installed;
    if (installed !== undefined) where.add`a.installed = ${installed}`;
    const page = await sql.connection<AppRow>(
      {
        select: PAYMENT_APP_COLUMNS,
        from: 'orders.payment_app a',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'a.created_at', type: 'timestamptz' }, name: { sql: 'a.name', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 'a.id',
      },
      input,
    );
    const windows = await storeWindowsOf(
      sql,
      page.edges.map((edge) => edge.node.app_id),
      actor.tenant_id,
    );
    return mapNodes(page, (app) => paymentAppOf(app, windows));
  },
});
