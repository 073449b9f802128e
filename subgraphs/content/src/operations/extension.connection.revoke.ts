import { t } from '@backoffice/platform';
import { connectionFields } from '../domain/connections';
import { defineContentOperation } from '../ports';

/** Disarms a connection: its sealed credential is deleted. Revoking what is not armed changes nothing. No event, as for arming. */
export const extensionConnectionRevoke = defineContentOperation({
  name: 'extension.connection.revoke',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'extensions.egress.consent',
  ownerGated: true,
  summary:
    "Disarms an extension's connection: its credential is deleted from the vault (`revoked: false` when none was armed). Owner-gated. No event (extension).",
  input: t.object({ extension_id: connectionFields.extension_id, connection_name: connectionFields.connection_name }),
  result: t.object({ extension_id: t.string(), connection_name: t.string(), revoked: t.boolean({ description: 'true when a credential was deleted' }) }),
  events: [],
  async handler({ input, actor, sql }) {
    const deleted = await sql.returning<{ connection_name: string }>(
      `DELETE FROM content.extension_connection WHERE tenant_id = $1 AND extension_id = $2 AND connection_name = $3 RETURNING connection_name`,
      [actor.tenant_id, input.extension_id, input.connection_name],
    );
    return { extension_id: input.extension_id, connection_name: input.connection_name, revoked: deleted.length > 0 };
  },
});
