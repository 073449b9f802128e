import { newId, t, validationFailed, sqlOf } from '@backoffice/platform';
import { refreshPaymentExpiry } from '../domain/payment-expiry';
import { KEY_PATTERN, PAYMENT_METHODS_MAX, WINDOW_MAX } from '../domain/payments';
import { paymentAppInstalled } from '../events';
import { defineOrdersOperation } from '../ports';

export const paymentAppInstall = defineOrdersOperation({
  name: 'payment.app.install',
  kind: 'command',
  access: 'internal',
  scope: 'payments.write',
  summary: 'Installs a payment app with its methods and their payment windows; installing the same app_key again updates it (extension).',
  input: t.object({
    app_key: t.string({ minLength: 1, maxLength: 64, pattern: KEY_PATTERN }),
    name: t.string({ minLength: 1, maxLength: 200 }),
    methods: t.array(
      t.object({
        method: t.string({ minLength: 1, maxLength: 64, pattern: KEY_PATTERN }),
        reservation_window_seconds: t.nullable(
          t.integer({ minimum: 1, maximum: WINDOW_MAX, description: 'how long an order waits for payment; null: no window (never expires)' }),
        ),
      }),
      { minItems: 1, maxItems: PAYMENT_METHODS_MAX },
    ),
  }),
  result: t.object({ app_id: t.string() }),
  events: [paymentAppInstalled],
  async handler({ input, actor, db, emit }) {
    if (new Set(input.methods.map((m) => m.method)).size !== input.methods.length)
      throw validationFailed('methods: a method is listed twice', { reason: 'duplicate', field: 'methods' });
    const [app] = await sqlOf(db).rows<{ id: string }>(
      `INSERT INTO orders.payment_app (id, tenant_id, app_key, name, methods) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (tenant_id, app_key) DO UPDATE SET name = $4, methods = $5, installed = true, updated_at = now() RETURNING id`,
      [newId('app'), actor.tenant_id, input.app_key, input.name, JSON.stringify(input.methods)],
    );
    // Windows of orders waiting on this app follow its methods (and its being installed again).
    await refreshPaymentExpiry(db, actor.tenant_id, { appId: app.id });
    emit(paymentAppInstalled, { app_id: app.id, app_key: input.app_key, methods: input.methods });
    return { app_id: app.id };
  },
});
