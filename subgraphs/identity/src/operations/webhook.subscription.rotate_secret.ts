import { t } from '@backoffice/platform';
import { eventPayloadOf, lockSubscription, newSigningSecret, WEBHOOK_SECRET_OVERLAP_MS } from '../domain/webhooks';
import { webhookSubscriptionUpdated } from '../events';
import { defineIdentityOperation } from '../ports';

export const webhookSubscriptionRotateSecret = defineIdentityOperation({
  name: 'webhook.subscription.rotate_secret',
  kind: 'command',
  access: 'internal',
  scope: 'webhooks.write',
  summary: 'Gives a subscription a new signing secret (returned once); the previous one keeps signing alongside it for 24 hours.',
  input: t.object({ subscription_id: t.id() }),
  result: t.object({ subscription_id: t.string(), secret: t.string(), previous_secret_expires_at: t.timestamp() }),
  events: [webhookSubscriptionUpdated],
  async handler({ input, actor, db, stage, emit, ports }) {
    const row = await lockSubscription(db, actor, input.subscription_id);
    const secret = newSigningSecret();
    const until = new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS);
    // A second rotation within the overlap drops the oldest secret: two sign at most.
    stage(
      `UPDATE identity.webhook_subscription SET previous_secret_sealed = secret_sealed, previous_secret_until = $2, secret_sealed = $3, updated_at = now() WHERE id = $1`,
      [row.id, until, ports.webhooks.secrets.seal(secret)],
    );
    emit(webhookSubscriptionUpdated, { ...eventPayloadOf(row), secret_rotated: true });
    return { subscription_id: row.id, secret, previous_secret_expires_at: until.toISOString() };
  },
});
