import { t, pageOf } from '@backoffice/platform';
import { connectionFields, connectionView, extensionConnectionView, type ConnectionRow } from '../domain/connections';
import { defineContentOperation } from '../ports';

/** The tenant's armed connections: names, keys and times, never a credential value. */
export const readInternalExtensionsConnections = defineContentOperation({
  name: 'read.internal.extensions.connections',
  kind: 'read',
  access: 'internal',
  scope: 'extensions.egress.consent',
  summary:
    "The tenant's armed extension connections, by extension then name: names, credential keys and times, never a value; `extension_id` keeps one extension's (extension).",
  restPath: '/internal/extensions/connections',
  input: t.object({
    extension_id: t.optional(connectionFields.extension_id),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: pageOf(extensionConnectionView),
  events: [],
  async handler({ input, actor, sql }) {
    const page = await sql.page<ConnectionRow>(
      {
        // Never the sealed column: a read has no use for it.
        select: 'extension_id, connection_name, credential_keys, created_at, updated_at',
        from: 'content.extension_connection',
        where: `tenant_id = $1 AND ($2::text IS NULL OR extension_id = $2)`,
        orderBy: 'extension_id COLLATE "C", connection_name COLLATE "C"',
        params: [actor.tenant_id, input.extension_id ?? null],
      },
      input,
    );
    return { ...page, items: page.items.map(connectionView) };
  },
});
