import { escapeLike, t, pageOf, conditions } from '@backoffice/platform';
import { customerFor, customerView } from '../domain/order-view';
import { MACHINES, type StateOf } from '../domain/states';
import { defineOrdersOperation } from '../ports';

const summary = t.object({
  order_id: t.string(),
  store_id: t.string(),
  status: MACHINES.order.enum(),
  currency: t.string(),
  total_amount: t.integer({ description: 'items less discount, plus shipping_amount' }),
  shipping_amount: t.integer({ description: 'the shipping price included in total_amount (extension)' }),
  customer: customerView,
  created_at: t.timestamp(),
});

export const readInternalOrders = defineOrdersOperation({
  name: 'read.internal.orders',
  kind: 'read',
  access: 'internal',
  scope: 'order.read',
  summary:
    'The tenant’s orders, newest first, by status, store, or `q` (the order id or the customer’s email); personal fields masked without pii.read (extension).',
  restPath: '/internal/orders',
  input: t.object({
    status: t.optional(MACHINES.order.enum()),
    store_id: t.optional(t.id()),
    q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'an order id, or part of the customer’s email (needs pii.read)' })),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOf(summary),
  events: [],
  async handler({ input, actor, sql }) {
    const pii = actor.scopes.includes('pii.read');
    const where = conditions().add`tenant_id = ${actor.tenant_id}`;
    if (input.status) where.add`status = ${input.status}`;
    if (input.store_id) where.add`store_id = ${input.store_id}`;
    // Searching by email would reveal it to an actor who may not see it: the id only, then.
    if (input.q && pii) where.add`(id = ${input.q} OR customer->>'email' ILIKE ${`%${escapeLike(input.q)}%`})`;
    else if (input.q) where.add`id = ${input.q}`;
    const page = await sql.page<{
      id: string;
      store_id: string;
      status: StateOf<'order'>;
      currency: string;
      total_amount: number;
      shipping_amount: number;
      customer: never;
      created_at: Date;
    }>(
      {
        select: 'id, store_id, status, currency, total_amount::float8 AS total_amount, shipping_amount::float8 AS shipping_amount, customer, created_at',
        from: 'orders."order"',
        where: where.sql,
        orderBy: 'created_at DESC, id DESC',
        params: where.params,
      },
      input,
    );
    return {
      ...page,
      items: page.items.map((r) => ({
        order_id: r.id,
        store_id: r.store_id,
        status: r.status,
        currency: r.currency,
        total_amount: r.total_amount,
        shipping_amount: r.shipping_amount,
        customer: customerFor(r.customer, pii),
        created_at: r.created_at.toISOString(),
      })),
    };
  },
});
