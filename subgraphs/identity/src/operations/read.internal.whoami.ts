import { defineOperation, t } from '@backoffice/platform';

export const readInternalWhoami = defineOperation({
  name: 'read.internal.whoami',
  kind: 'read',
  access: 'internal',
  scope: null,
  summary: 'The calling key: its actor id, name, tenant, token generation and scopes.',
  restPath: '/internal/whoami',
  input: t.object({}),
  result: t.object({
    actor_id: t.string(),
    name: t.string(),
    tenant_id: t.string(),
    credential_id: t.string(),
    scopes: t.array(t.string()),
  }),
  events: [],
  async handler({ actor }) {
    const { api_key_id, name, tenant_id, credential_id, scopes } = actor;
    return { actor_id: api_key_id, name, tenant_id, credential_id, scopes };
  },
});
