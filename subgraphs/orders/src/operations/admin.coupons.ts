import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions } from '@backoffice/platform';
import { COUPON_COLUMNS, couponOf, couponView, type CouponRow } from '../domain/admin-views';
import { defineOrdersOperation } from '../ports';

/** The admin's coupon list as a Relay connection (GraphQL only). */
export const adminCoupons = defineOrdersOperation({
  name: 'admin.coupons',
  kind: 'read',
  access: 'internal',
  // No read scope of their own: coupons are read with the orders that use them.
  scope: 'order.read',
  summary: 'The tenant’s coupons as a Relay connection, newest first unless ordered otherwise; `q` searches the code.',
  connection: { field: 'coupons' },
  input: connectionArgs(
    'Coupon',
    ['created_at', 'code'] as const,
    t.object({ q: t.optional(t.string({ minLength: 1, maxLength: 64, description: 'part of the code, ignoring case' })) }),
  ),
  result: connectionOf(couponView, 'Coupon'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`c.tenant_id = ${actor.tenant_id}`;
    const q = input.filter?.q;
    if (q) where.add`c.code ILIKE ${`%${escapeLike(q)}%`}`;
    const page = await sql.connection<CouponRow>(
      {
        select: COUPON_COLUMNS,
        from: 'orders.coupon c',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'c.created_at', type: 'timestamptz' }, code: { sql: 'c.code', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 'c.id',
      },
      input,
    );
    return mapNodes(page, couponOf);
  },
});
