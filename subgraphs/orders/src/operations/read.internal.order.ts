import { notFound, t, sqlOf } from '@backoffice/platform';
import { attemptsOf, documentsOf, itemsOf, orderView, ordersByIds, shipmentItemsOf, shipmentsBy } from '../domain/order-entity';
import { defineOrdersOperation } from '../ports';

export const readInternalOrder = defineOrdersOperation({
  name: 'read.internal.order',
  kind: 'read',
  access: 'internal',
  scope: 'order.read',
  summary:
    'One order: items with their price snapshot, the reservation and its status, payment attempts, totals, customer ' +
    'and address, parcels (items and quantities, warehouse, status, estimated delivery date, tracking) and ' +
    'documents; personal fields masked without pii.read (extension).',
  restPath: '/internal/order',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({ order_id: t.id() }),
  result: orderView,
  events: [],
  async handler({ input, actor, db }) {
    // One snapshot: shipments, their items and documents agree even while a split commits.
    return db.transaction('REPEATABLE READ', async (tx) => {
      await tx.query('SET TRANSACTION READ ONLY');
      const pii = actor.scopes.includes('pii.read');
      const tenant = actor.tenant_id;
      // One query at a time: a transaction's connection runs one at a time.
      const sql = sqlOf(tx);
      const [order] = await ordersByIds(sql, [input.order_id], tenant, pii);
      if (!order) throw notFound(`order ${input.order_id} does not exist in this tenant`, { field: 'order_id' });
      const [items] = await itemsOf(sql, [order.order_id], tenant);
      const [attempts] = await attemptsOf(sql, [order.order_id], tenant);
      const shipments = await shipmentsBy(sql, 'order_id', [order.order_id], tenant);
      const shipmentItems = await shipmentItemsOf(
        sql,
        shipments.map((s) => s.shipment_id),
        tenant,
      );
      const [documents] = await documentsOf(sql, [order.order_id], tenant);
      return {
        ...order,
        items,
        payment_attempts: attempts,
        shipments: shipments.map(({ order_id, ...s }, i) => ({ ...s, items: shipmentItems[i] })),
        documents,
      };
    });
  },
});
