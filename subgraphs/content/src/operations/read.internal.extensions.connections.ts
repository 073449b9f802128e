import { t } from '@backoffice/platform';
import { connectionFields, connectionView, type ConnectionRow } from '../domain/connections';
import { defineContentOperation } from '../ports';

const connection = t.entity('ExtensionConnection', {
  extension_id: t.string(),
  connection_name: t.string(),
  credential_keys: t.array(t.string(), { description: 'the top-level keys armed; never a value' }),
  created_at: t.timestamp(),
  updated_at: t.timestamp(),
});

/** The tenant's armed connections: names, keys and times, never a credential value. */
export const readExtensionConnections = defineContentOperation({
  name: 'read.internal.extensions.connections',
  kind: 'read',
  access: 'internal',
  scope: 'extensions.egress.consent',
  summary: "The tenant's armed extension connections, by extension then name: names, credential keys and times, never a value; `extension_id` keeps one extension's (extension).",
  restPath: '/internal/extensions/connections',
  input: t.object({
    extension_id: t.optional(connectionFields.extension_id),
    limit: t.optional(t.integer({ minimum: 1, maximum: 100, default: 24 })),
    page: t.optional(t.integer({ minimum: 1, maximum: 10_000, default: 1 })),
  }),
  result: t.object({ items: t.array(connection), page: t.integer({ minimum: 1 }), limit: t.integer({ minimum: 1 }), total: t.integer({ minimum: 0 }) }),
  events: [],
  async handler({ input, actor, db }) {
    const limit = input.limit ?? 24;
    const page = input.page ?? 1;
    const params = [actor.tenant_id, input.extension_id ?? null];
    const where = `tenant_id = $1 AND ($2::text IS NULL OR extension_id = $2)`;
    // Never the sealed column: a read has no use for it.
    const [rows, [{ total }]] = (await Promise.all([
      db.query(
        `SELECT extension_id, connection_name, credential_keys, created_at, updated_at FROM content.extension_connection WHERE ${where}
         ORDER BY extension_id COLLATE "C", connection_name COLLATE "C" LIMIT ${limit} OFFSET ${(page - 1) * limit}`,
        params,
      ),
      db.query(`SELECT count(*)::int AS total FROM content.extension_connection WHERE ${where}`, params),
    ])) as [ConnectionRow[], Array<{ total: number }>];
    return { items: rows.map(connectionView), page, limit, total };
  },
});
