import { defineEvent, t } from '@backoffice/platform';

/*
 * Events one subgraph emits and another consumes: declared here, where both can see them. The emitter
 * still lists them among its events (identity: tenant.created).
 */

export const tenantCreated = defineEvent(
  'tenant.created',
  t.object({ tenant_id: t.string(), store_id: t.string({ description: 'its first store' }), name: t.string(), created_at: t.timestamp() }),
  'A tenant was created with its first store and its owner key (`tenant create`, from the command line). Orders ' +
    'sets the tenant up on it: its `default` warehouse, and payment expiry running from this moment.',
);
