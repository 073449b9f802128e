import { conflict, t } from '@backoffice/platform';
import { refreshPaymentExpiry } from '../domain/payment-expiry';
import { paymentAppUninstalled } from '../events';
import { defineOrdersOperation } from '../ports';

export const paymentAppUninstall = defineOrdersOperation({
  name: 'payment.app.uninstall',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'payments.write',
  summary: 'Uninstalls a payment app: orders whose payment uses it no longer expire (windowless). Uninstalling twice changes nothing (extension).',
  input: t.object({ app_id: t.id() }),
  result: t.object({ app_id: t.string(), installed: t.boolean() }),
  events: [paymentAppUninstalled],
  async handler({ input, actor, db, sql, emit }) {
    const [app] = await sql.rows<{ id: string; app_key: string; installed: boolean }>(
      `SELECT id, app_key, installed FROM orders.payment_app WHERE id = $1 AND tenant_id = $2 FOR UPDATE`,
      [input.app_id, actor.tenant_id],
    );
    if (!app) throw conflict(`payment app ${input.app_id} does not exist in this tenant`, { reason: 'not_found', field: 'app_id' });
    if (app.installed) {
      await sql.run(`UPDATE orders.payment_app SET installed = false, updated_at = now() WHERE id = $1`, [app.id]);
      await refreshPaymentExpiry(db, actor.tenant_id, { appId: app.id });
      emit(paymentAppUninstalled, { app_id: app.id, app_key: app.app_key });
    }
    return { app_id: app.id, installed: false };
  },
});
