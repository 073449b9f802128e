import { t } from '@backoffice/platform';
import { cancelOrders, lockOrder } from '../domain/orders';
import { inventoryReleased, orderCancelled, paymentAttemptFailed } from '../events';
import { defineOrdersOperation } from '../ports';
import { MACHINES } from '../domain/states';

export const orderCancel = defineOrdersOperation({
  name: 'order.cancel',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary:
    'Cancels an unpaid order with the effects of expiry (hold released, coupon use returned, open payment attempt ' +
    'failed); cancelling again changes nothing; a paid order cannot be cancelled (extension).',
  input: t.object({
    order_id: t.id(),
    reason: t.optional(t.string({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$', description: 'default merchant_cancelled' })),
  }),
  result: t.object({ order_id: t.string(), status: MACHINES.order.enum(['cancelled']) }),
  events: [orderCancelled, inventoryReleased, paymentAttemptFailed],
  async handler({ input, actor, db, emit }) {
    const order = await lockOrder(db, actor.tenant_id, input.order_id);
    await cancelOrders(db, [order], input.reason ?? 'merchant_cancelled', 'cancelled', emit);
    return { order_id: order.id, status: 'cancelled' as const };
  },
});
