import { connectionArgs, escapeLike, mapNodes, selectedConnectionOf, t, conditions, sqlText } from '@backoffice/platform';
import {
  itemFieldsAt,
  itemsColumn,
  itemsOfColumn,
  ITEMS_OF_ORDER,
  orderFrom,
  orderColumns,
  orderFields,
  orderFieldsAt,
  orderNode,
  type OrderRow,
} from '../domain/order-entity';
import { FULFILMENT_COLUMN, FULFILMENT_OF_ORDER, FULFILMENT_WHERE, fulfilmentEnum, type FulfilmentStatus } from '../domain/fulfilment';
import { MACHINES } from '../domain/states';
import { defineOrdersOperation } from '../ports';

/** The admin's order list as a Relay connection (GraphQL only): `read.internal.orders` stays the paged read of REST. */
export const adminOrders = defineOrdersOperation({
  name: 'admin.orders',
  kind: 'read',
  access: 'internal',
  scope: 'order.read',
  summary:
    'The tenant’s orders as a Relay connection, newest first unless ordered otherwise; filters by status, fulfilment (how far its parcels have gone), store and `q` (the order id, or part of ' +
    'the customer’s email with pii.read); personal fields masked without pii.read. Each node is the `Order`: its links load only when selected.',
  connection: { field: 'orders' },
  input: connectionArgs(
    'Order',
    ['created_at', 'total_amount'] as const,
    t.object({
      status: t.optional(MACHINES.order.enum()),
      fulfilment: t.optional(fulfilmentEnum('the orders whose parcels have gone this far (as the node’s fulfilment_status)')),
      store_id: t.optional(t.id()),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'an order id, or part of the customer’s email (needs pii.read)' })),
    }),
  ),
  result: selectedConnectionOf(orderNode, 'Order'),
  events: [],
  async handler({ input, actor, sql, selects }) {
    const pii = actor.scopes.includes('pii.read');
    const where = conditions().add`o.tenant_id = ${actor.tenant_id}`;
    const { status, fulfilment, store_id, q } = input.filter ?? {};
    if (status) where.add`o.status = ${status}`;
    if (fulfilment) where.add`${sqlText(FULFILMENT_WHERE[fulfilment])}`;
    if (store_id) where.add`o.store_id = ${store_id}`;
    // As read.internal.orders: searching by email would reveal it to an actor who may not see it.
    if (q && pii) where.add`(o.id = ${q} OR o.customer->>'email' ILIKE ${`%${escapeLike(q)}%`})`;
    else if (q) where.add`o.id = ${q}`;
    // Looking ahead: the order's lean fields unless more are selected, its items when selected, read
    // with the page (not by a second statement), lean too unless more are; the count only when asked.
    const fields = orderFieldsAt(selects, 'edges.node');
    const items = itemFieldsAt(selects, 'edges.node.items');
    const fulfilmentStatus = selects('edges.node.fulfilment_status');
    const page = await sql.connection<OrderRow & { items?: unknown[][]; fulfilment_status?: FulfilmentStatus }>(
      {
        select: [orderColumns(fields), items && itemsColumn(items), fulfilmentStatus && FULFILMENT_COLUMN].filter(Boolean).join(', '),
        from: orderFrom(fields),
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'o.created_at', type: 'timestamptz' }, total_amount: { sql: 'o.total_amount', type: 'bigint' } },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 'o.id',
        count: selects('totalCount'),
      },
      input,
    );
    // Out of the result's schema (symbols): the `Order.items` and `Order.fulfilment_status` resolvers', and never on the wire.
    return mapNodes(page, (row) =>
      Object.assign(
        orderFields(row, pii, fields),
        items && row.items && { [ITEMS_OF_ORDER]: itemsOfColumn(items, row.items) },
        row.fulfilment_status && { [FULFILMENT_OF_ORDER]: row.fulfilment_status },
      ),
    );
  },
});
