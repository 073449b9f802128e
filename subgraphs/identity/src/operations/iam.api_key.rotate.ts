import { conflict, defineOperation, t } from '@backoffice/platform';
import { credentialWrite, expiryOf, lockKey, notifyKeyLifeChanged } from '../domain/keys';
import { apiKeyRotated } from '../events';

const HOUR_MS = 3_600_000;

export const iamApiKeyRotate = defineOperation({
  name: 'iam.api_key.rotate',
  kind: 'command',
  access: 'internal',
  scope: 'admin.users.write',
  summary: 'Mints a new token generation on the same key (same actor) and gives previous generations a deadline.',
  input: t.object({
    api_key_id: t.id(),
    expires_in_days: t.optional(t.integer({ minimum: 1, maximum: 3650 })),
    never_expires: t.optional(t.boolean()),
    overlap_hours: t.optional(t.integer({ minimum: 0, maximum: 8760, default: 24, description: '0 is an immediate cut-over' })),
  }),
  result: t.object({
    api_key_id: t.string(),
    credential_id: t.string(),
    token: t.string(),
    expires_at: t.nullable(t.timestamp()),
    previous_expires_at: t.timestamp(),
  }),
  events: [apiKeyRotated],
  async handler({ input, actor, db, stage, emit }) {
    const now = new Date();
    const expiresAt = expiryOf(input, now);
    const key = await lockKey(db, actor, input.api_key_id);
    if (key.revoked_at) throw conflict(`api key ${key.id} is revoked`, { reason: 'illegal_transition', field: 'api_key_id' });
    await notifyKeyLifeChanged(db, key.id);
    const previousDeadline = new Date(now.getTime() + (input.overlap_hours ?? 24) * HOUR_MS);
    // Earlier deadlines stand: a generation already due to die sooner is not given more time.
    // Staged together: the statement's snapshot does not see the new generation, so it keeps its own expiry.
    stage(
      `UPDATE identity.credential SET expires_at = LEAST(COALESCE(expires_at, 'infinity'), $2)
       WHERE api_key_id = $1 AND (expires_at IS NULL OR expires_at > $3)`,
      [key.id, previousDeadline, now],
    );
    const write = credentialWrite(key.tenant_id, key.id, expiresAt);
    stage(write.sql, write.params);
    const credential = write.minted;
    const result = {
      api_key_id: key.id,
      credential_id: credential.credential_id,
      expires_at: expiresAt?.toISOString() ?? null,
      previous_expires_at: previousDeadline.toISOString(),
    };
    emit(apiKeyRotated, { ...result, overlap_hours: input.overlap_hours ?? 24 });
    return { ...result, token: credential.token };
  },
});
