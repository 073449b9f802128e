import { defineOperation, newId, t } from '@backoffice/platform';
import { apiKeyWrite, assertRoomForKey, assertWithinIssuer, credentialWrite, expiryOf } from '../domain/keys';
import { apiKeyCreated } from '../events';
import { ALL_SCOPES, scopesView } from '../domain/scopes';

export const iamApiKeyCreate = defineOperation({
  name: 'iam.api_key.create',
  kind: 'command',
  access: 'internal',
  scope: 'admin.users.write',
  summary: 'Creates an API key (an actor) with a name and scopes within the issuing key’s own; the token is returned once.',
  input: t.object({
    name: t.string({ minLength: 1, maxLength: 120, description: 'becomes the actor name in the audit trail' }),
    scopes: t.array(t.enum(ALL_SCOPES), { uniqueItems: true, maxItems: ALL_SCOPES.length }),
    expires_in_days: t.optional(t.integer({ minimum: 1, maximum: 3650 })),
    never_expires: t.optional(t.boolean()),
  }),
  result: t.object({
    api_key_id: t.string(),
    credential_id: t.string(),
    token: t.string(),
    expires_at: t.nullable(t.timestamp()),
    name: t.string(),
    scopes: scopesView(),
  }),
  events: [apiKeyCreated],
  async handler({ input, actor, db, stage, emit }) {
    assertWithinIssuer(actor, input.scopes);
    await assertRoomForKey(db, actor.tenant_id);
    const expiresAt = expiryOf(input, new Date());
    const apiKeyId = newId('key');
    const key = apiKeyWrite({ id: apiKeyId, tenant_id: actor.tenant_id, name: input.name, scopes: input.scopes, issued_by: actor.api_key_id });
    stage(key.sql, key.params);
    const write = credentialWrite(actor.tenant_id, apiKeyId, expiresAt);
    stage(write.sql, write.params);
    const credential = write.minted;
    const expires_at = expiresAt?.toISOString() ?? null;
    emit(apiKeyCreated, { api_key_id: apiKeyId, credential_id: credential.credential_id, name: input.name, scopes: input.scopes, expires_at });
    return { api_key_id: apiKeyId, credential_id: credential.credential_id, token: credential.token, expires_at, name: input.name, scopes: input.scopes };
  },
});
