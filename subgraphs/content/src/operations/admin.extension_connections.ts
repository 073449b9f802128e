import { connectionArgs, connectionOf, mapNodes, t, conditions } from '@backoffice/platform';
import { connectionFields, connectionView, extensionConnectionView, type ConnectionRow } from '../domain/connections';
import { defineContentOperation } from '../ports';

/** The tenant's armed extension connections as a Relay connection (GraphQL only): never a credential value. */
export const adminExtensionConnections = defineContentOperation({
  name: 'admin.extension_connections',
  kind: 'read',
  access: 'internal',
  scope: 'extensions.egress.consent',
  summary:
    "The tenant's armed extension connections as a Relay connection, by extension then name unless ordered otherwise: names, credential keys " +
    'and times, never a value; filter extension_id.',
  connection: { field: 'extension_connections' },
  input: connectionArgs('ExtensionConnection', ['name', 'updated_at'] as const, t.object({ extension_id: t.optional(connectionFields.extension_id) })),
  result: connectionOf(extensionConnectionView, 'ExtensionConnection'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`c.tenant_id = ${actor.tenant_id}`;
    if (input.filter?.extension_id) where.add`c.extension_id = ${input.filter.extension_id}`;
    // The pair is the row's key within the tenant; as a JSON array's text it is one unique, never-null value (a plain join could collide).
    const name = `jsonb_build_array(c.extension_id, c.connection_name)::text`;
    const page = await sql.connection<ConnectionRow>(
      {
        // Never the sealed column: a read has no use for it.
        select: 'c.extension_id, c.connection_name, c.credential_keys, c.created_at, c.updated_at',
        from: 'content.extension_connection c',
        where: where.sql,
        params: where.params,
        sorts: { name: { sql: `${name} COLLATE "C"`, type: 'text' }, updated_at: { sql: 'c.updated_at', type: 'timestamptz' } },
        defaultOrder: { field: 'name', direction: 'ASC' },
        id: name,
      },
      input,
    );
    return mapNodes(page, connectionView);
  },
});
