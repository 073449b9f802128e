import { defineOperation, t } from '@backoffice/platform';
import { lockKey, notifyKeyLifeChanged } from '../domain/keys';
import { apiKeyRevoked } from '../events';

/** The model of a command: lock what it acts on, check, stage the write, emit, return. */
export const iamApiKeyRevoke = defineOperation({
  name: 'iam.api_key.revoke',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'admin.users.write',
  summary: 'Revokes a key: every token generation stops working at once. Revoking a revoked key changes nothing.',
  input: t.object({ api_key_id: t.id() }),
  result: t.object({ api_key_id: t.string(), revoked: t.boolean(), revoked_at: t.timestamp() }),
  events: [apiKeyRevoked],
  async handler({ input, actor, db, stage, emit }) {
    const key = await lockKey(db, actor, input.api_key_id);
    if (key.revoked_at) return { api_key_id: key.id, revoked: true, revoked_at: key.revoked_at.toISOString() };
    const revokedAt = new Date();
    await notifyKeyLifeChanged(db, key.id);
    stage(`UPDATE identity.api_key SET revoked_at = $2 WHERE id = $1`, [key.id, revokedAt]);
    emit(apiKeyRevoked, { api_key_id: key.id, revoked_at: revokedAt.toISOString() });
    return { api_key_id: key.id, revoked: true, revoked_at: revokedAt.toISOString() };
  },
});
