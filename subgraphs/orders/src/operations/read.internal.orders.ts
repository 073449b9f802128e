import { escapeLike, t } from '@backoffice/platform';
import { customerFor, customerView } from '../domain/order-view';
import { MACHINES, type StateOf } from '../domain/states';
import { defineOrdersOperation } from '../ports';

const summary = t.object({
  order_id: t.string(),
  store_id: t.string(),
  status: t.enum(MACHINES.order.states),
  currency: t.string(),
  total_amount: t.integer(),
  customer: customerView,
  created_at: t.timestamp(),
});

export const readOrders = defineOrdersOperation({
  name: 'read.internal.orders',
  kind: 'read',
  access: 'internal',
  scope: 'order.read',
  summary: 'The tenant’s orders, newest first, by status, store, or `q` (the order id or the customer’s email); personal fields masked without pii.read (extension).',
  restPath: '/internal/orders',
  input: t.object({
    status: t.optional(t.enum(MACHINES.order.states)),
    store_id: t.optional(t.id()),
    q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'an order id, or part of the customer’s email (needs pii.read)' })),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: t.object({ items: t.array(summary), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const pii = actor.scopes.includes('pii.read');
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const values: unknown[] = [actor.tenant_id];
    const where = ['tenant_id = $1'];
    if (input.status) where.push(`status = $${values.push(input.status)}`);
    if (input.store_id) where.push(`store_id = $${values.push(input.store_id)}`);
    // Searching by email would reveal it to an actor who may not see it: the id only, then.
    if (input.q) where.push(pii ? `(id = $${values.push(input.q)} OR customer->>'email' ILIKE $${values.push(`%${escapeLike(input.q)}%`)})` : `id = $${values.push(input.q)}`);
    const filter = where.join(' AND ');
    const [rows, [{ total }]] = (await Promise.all([
      db.query(
        `SELECT id, store_id, status, currency, total_amount::float8 AS total_amount, customer, created_at FROM orders."order"
         WHERE ${filter} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
        values,
      ),
      db.query(`SELECT count(*)::int AS total FROM orders."order" WHERE ${filter}`, values),
    ])) as [Array<{ id: string; store_id: string; status: StateOf<'order'>; currency: string; total_amount: number; customer: never; created_at: Date }>, Array<{ total: number }>];
    return {
      items: rows.map((r) => ({
        order_id: r.id,
        store_id: r.store_id,
        status: r.status,
        currency: r.currency,
        total_amount: r.total_amount,
        customer: customerFor(r.customer, pii),
        created_at: r.created_at.toISOString(),
      })),
      page,
      limit,
      total,
    };
  },
});
