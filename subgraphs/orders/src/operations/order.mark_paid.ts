import { t } from '@backoffice/platform';
import { lockOrder, markPaid } from '../domain/orders';
import { inventoryCommitted, orderPaid, orderStockUncommitted } from '../events';
import { defineOrdersOperation } from '../ports';
import { MACHINES } from '../domain/states';

export const orderMarkPaid = defineOrdersOperation({
  name: 'order.mark_paid',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary: 'Moves pending_payment to paid and commits the reservation; idempotent by state.',
  input: t.object({ order_id: t.id() }),
  result: t.object({ order_id: t.string(), status: MACHINES.order.enum() }),
  events: [orderPaid, inventoryCommitted, orderStockUncommitted],
  async handler({ input, actor, db, emit }) {
    const order = await lockOrder(db, actor.tenant_id, input.order_id);
    await markPaid(db, order, emit);
    return { order_id: order.id, status: order.status };
  },
});
