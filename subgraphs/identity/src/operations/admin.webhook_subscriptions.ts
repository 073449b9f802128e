import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions } from '@backoffice/platform';
import { subscriptionView, viewOf, type SubscriptionRow } from '../domain/webhooks';
import { defineIdentityOperation } from '../ports';

/** The tenant's webhook subscriptions as a Relay connection (GraphQL only): never their secrets. */
export const adminWebhookSubscriptions = defineIdentityOperation({
  name: 'admin.webhook_subscriptions',
  kind: 'read',
  access: 'internal',
  scope: 'webhooks.read',
  summary:
    "The tenant's webhook subscriptions as a Relay connection, oldest first unless ordered otherwise; filters `enabled` and `q` (the url); never " +
    'their secrets.',
  connection: { field: 'webhook_subscriptions' },
  input: connectionArgs(
    'WebhookSubscription',
    ['created_at', 'url'] as const,
    t.object({
      enabled: t.optional(t.boolean()),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches the url' })),
    }),
  ),
  result: connectionOf(subscriptionView, 'WebhookSubscription'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`w.tenant_id = ${actor.tenant_id}`;
    const { enabled, q } = input.filter ?? {};
    if (enabled !== undefined) where.add`w.enabled = ${enabled}`;
    if (q) where.add`w.url ILIKE ${`%${escapeLike(q)}%`}`;
    const page = await sql.connection<SubscriptionRow>(
      {
        select: 'w.*',
        from: 'identity.webhook_subscription w',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'w.created_at', type: 'timestamptz' }, url: { sql: 'w.url', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 'w.id',
      },
      input,
    );
    return mapNodes(page, viewOf);
  },
});
