import { t } from '@backoffice/platform';
import { armWrite, CREDENTIAL_MAX_KEYS, checkCredential, connectionFields, credentialInput } from '../domain/connections';
import { defineContentOperation } from '../ports';

/**
 * Arms a self-installed app's connection credential: sealed into the vault, never returned, logged,
 * put in an event, the audit trail or an error. No event (reference section 6). Setting it again
 * replaces it.
 */
export const extensionConnectionSet = defineContentOperation({
  name: 'extension.connection.set',
  kind: 'command',
  access: 'internal',
  scope: 'extensions.egress.consent',
  ownerGated: true,
  summary:
    "Arms a self-installed app's connection credential in the tenant (write-only: sealed at rest, never returned; used only by the broker). Setting it again replaces it. Owner-gated. No event.",
  input: t.object({
    extension_id: connectionFields.extension_id,
    connection_name: connectionFields.connection_name,
    credential: t.optional(credentialInput),
  }),
  // Open (the reference): what was armed, never a value.
  result: t.openObject({
    extension_id: t.string(),
    connection_name: t.string(),
    armed: t.boolean(),
    credential_keys: t.array(t.string(), { maxItems: CREDENTIAL_MAX_KEYS, description: 'the top-level keys of the credential armed, sorted' }),
    updated_at: t.timestamp(),
  }),
  events: [],
  async handler({ input, actor, stage, ports }) {
    const credential = input.credential ?? {};
    checkCredential(credential);
    const binding = { tenant_id: actor.tenant_id, extension_id: input.extension_id, connection_name: input.connection_name };
    const at = new Date();
    // Sealed here: the statement carries only ciphertext. One upsert: setting again replaces.
    const write = armWrite(ports.vault, binding, credential, at);
    stage(write.sql, write.params);
    return { extension_id: input.extension_id, connection_name: input.connection_name, armed: true, credential_keys: write.keys, updated_at: at.toISOString() };
  },
});
