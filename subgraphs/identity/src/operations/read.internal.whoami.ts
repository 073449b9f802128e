import { defineOperation, isOperatorSession, t } from '@backoffice/platform';
import { scopesView } from '../domain/scopes';

export const readInternalWhoami = defineOperation({
  name: 'read.internal.whoami',
  kind: 'read',
  access: 'internal',
  scope: null,
  summary:
    "The calling key: its actor id, name, tenant, token generation and scopes; for an operator's session, the operator's own " +
    'locale (the admin follows it), null for an API key (extension).',
  restPath: '/internal/whoami',
  input: t.object({}),
  result: t.object({
    actor_id: t.string(),
    name: t.string(),
    tenant_id: t.string(),
    credential_id: t.string(),
    scopes: scopesView(),
    locale: t.nullable(t.string({ description: "an operator session's own locale (documented values: en, pt-BR, es); an API key has none" })),
  }),
  events: [],
  async handler({ actor, sql }) {
    const { api_key_id, name, tenant_id, credential_id, scopes } = actor;
    // A session's actor id is its operator's (domain/authenticate.ts); an API key has no locale of its own.
    const [operator] = isOperatorSession(actor)
      ? await sql.rows<{ locale: string }>('SELECT locale FROM identity.admin_user WHERE id = $1 AND tenant_id = $2', [api_key_id, tenant_id])
      : [];
    return { actor_id: api_key_id, name, tenant_id, credential_id, scopes, locale: operator?.locale ?? null };
  },
});
