import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions } from '@backoffice/platform';
import { API_KEY_COLUMNS, apiKeyView, apiKeyViewOf, type ApiKeyViewRow } from '../domain/api-key-view';
import { defineIdentityOperation } from '../ports';

/** The tenant's API keys as a Relay connection (GraphQL only; no REST read lists keys): never a token or its hash. */
export const adminApiKeys = defineIdentityOperation({
  name: 'admin.api_keys',
  kind: 'read',
  access: 'internal',
  scope: 'admin.users.read',
  summary:
    "The tenant's API keys as a Relay connection, newest first unless ordered otherwise: name, scopes, owner flag, times; never a token or its " +
    'hash. Filters `revoked` (true: revoked only, false: live only) and `q` (the name).',
  connection: { field: 'api_keys' },
  input: connectionArgs(
    'ApiKey',
    ['created_at', 'name'] as const,
    t.object({
      revoked: t.optional(t.boolean({ description: 'true: revoked keys only; false: keys not revoked' })),
      q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches the name' })),
    }),
  ),
  result: connectionOf(apiKeyView, 'ApiKey'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`k.tenant_id = ${actor.tenant_id}`;
    const { revoked, q } = input.filter ?? {};
    if (revoked === true) where.add`k.revoked_at IS NOT NULL`;
    if (revoked === false) where.add`k.revoked_at IS NULL`;
    if (q) where.add`k.name ILIKE ${`%${escapeLike(q)}%`}`;
    const page = await sql.connection<ApiKeyViewRow>(
      {
        select: API_KEY_COLUMNS,
        from: 'identity.api_key k',
        where: where.sql,
        params: where.params,
        sorts: { created_at: { sql: 'k.created_at', type: 'timestamptz' }, name: { sql: 'k.name', type: 'text' } },
        defaultOrder: { field: 'created_at', direction: 'DESC' },
        id: 'k.id',
      },
      input,
    );
    return mapNodes(page, apiKeyViewOf);
  },
});
