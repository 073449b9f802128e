import { newId, t, validationFailed } from '@backoffice/platform';
import { couponCreated } from '../events';
import { defineOrdersOperation } from '../ports';

export const couponCreate = defineOrdersOperation({
  name: 'coupon.create',
  kind: 'command',
  access: 'internal',
  scope: 'promotions.write',
  summary: 'Creates a coupon: a percentage or an amount off an order, with an optional cap on uses and an expiry; codes are unique ignoring case (extension).',
  input: t.object({
    code: t.string({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]{1,64}$' }),
    percent_off: t.optional(t.integer({ minimum: 1, maximum: 100 })),
    amount_off: t.optional(t.integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })),
    currency: t.optional(t.string({ minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$' })),
    max_uses: t.optional(t.nullable(t.integer({ minimum: 1, maximum: 1_000_000_000 }))),
    expires_at: t.optional(t.string({ format: 'date-time', maxLength: 40 })),
  }),
  result: t.object({ coupon_id: t.string() }),
  events: [couponCreated],
  async handler({ input, actor, emit, stage }) {
    if ((input.percent_off === undefined) === (input.amount_off === undefined))
      throw validationFailed('give exactly one of percent_off or amount_off', { reason: 'invalid_combination', field: 'percent_off' });
    if (input.amount_off !== undefined && !input.currency) throw validationFailed('amount_off needs a currency', { reason: 'required', field: 'currency' });
    if (input.percent_off !== undefined && input.currency)
      throw validationFailed('currency goes with amount_off only', { reason: 'invalid_combination', field: 'currency' });
    const id = newId('cpn');
    // A code taken (in any case) fails on the unique index: conflict.
    stage(`INSERT INTO orders.coupon (id, tenant_id, code, percent_off, amount_off, currency, max_uses, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
      id,
      actor.tenant_id,
      input.code,
      input.percent_off ?? null,
      input.amount_off ?? null,
      input.currency ?? null,
      input.max_uses ?? null,
      input.expires_at ?? null,
    ]);
    emit(couponCreated, { coupon_id: id, code: input.code });
    return { coupon_id: id };
  },
});
