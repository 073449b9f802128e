import { present, defineOperation, t, sqlOf } from '@backoffice/platform';
import { adminUserDeactivated, apiKeyRevoked } from '../events';
import { LIVE_KEYS_PER_TENANT, notifyKeyLifeChanged } from '../domain/keys';
import { assertMayGrant, lockOperator, notifyOperatorChanged, OPERATOR_MACHINE } from '../domain/operators';

/** Deactivates an operator: no more logins, and every session revoked at once in every process. */
export const adminUserDeactivate = defineOperation({
  name: 'admin_user.deactivate',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'admin.users.write',
  summary:
    'Deactivates an operator (extension): logins are refused and every session stops working at once, in every ' +
    'process; the email may be invited again. Deactivating a deactivated operator changes nothing. Needs every ' +
    'scope of the operator’s role.',
  input: t.object({ admin_user_id: t.id() }),
  result: t.object({
    admin_user_id: t.string(),
    status: OPERATOR_MACHINE.enum(),
    deactivated_at: t.timestamp(),
    sessions_revoked: t.integer({ minimum: 0 }),
    api_keys_revoked: t.array(t.string(), { maxItems: LIVE_KEYS_PER_TENANT.max, description: 'the keys the operator had issued, revoked with them' }),
  }),
  events: [adminUserDeactivated, apiKeyRevoked],
  async handler({ input, actor, db, stage, emit }) {
    const operator = await lockOperator(db, actor, input.admin_user_id);
    if (OPERATOR_MACHINE.assertMove(operator.id, operator.status, 'deactivated') === 'same') {
      return {
        admin_user_id: operator.id,
        status: operator.status,
        deactivated_at: present(operator.deactivated_at, 'deactivated_at').toISOString(),
        sessions_revoked: 0,
        api_keys_revoked: [],
      };
    }
    assertMayGrant(actor, operator.role);
    const to = 'deactivated' as const;
    const now = new Date();
    const [{ live }] = await sqlOf(db).rows<{ live: number }>(
      `SELECT count(*)::int AS live FROM identity.operator_session WHERE admin_user_id = $1 AND revoked_at IS NULL AND expires_at > now()`,
      [operator.id],
    );
    await notifyOperatorChanged(db, operator.id);
    stage(`UPDATE identity.admin_user SET status = $2, deactivated_at = $3, updated_at = $3 WHERE id = $1`, [operator.id, to, now]);
    stage(`UPDATE identity.operator_session SET revoked_at = $2 WHERE admin_user_id = $1 AND revoked_at IS NULL`, [operator.id, now]);
    stage(`UPDATE identity.login_code SET sealed_code = NULL, used_at = coalesce(used_at, $2) WHERE admin_user_id = $1 AND used_at IS NULL`, [
      operator.id,
      now,
    ]);
    // The keys the operator issued go with them: a departing operator keeps no way in.
    const keys = await sqlOf(db).rows<{ id: string }>(
      `SELECT id FROM identity.api_key WHERE tenant_id = $1 AND issued_by = $2 AND revoked_at IS NULL FOR UPDATE`,
      [operator.tenant_id, operator.id],
    );
    for (const key of keys) {
      await notifyKeyLifeChanged(db, key.id);
      emit(apiKeyRevoked, { api_key_id: key.id, revoked_at: now.toISOString() });
    }
    if (keys.length) stage(`UPDATE identity.api_key SET revoked_at = $2 WHERE id = ANY($1::text[])`, [keys.map((k) => k.id), now]);
    emit(adminUserDeactivated, { admin_user_id: operator.id, deactivated_at: now.toISOString(), sessions_revoked: live });
    const apiKeysRevoked = keys.map((k) => k.id);
    return { admin_user_id: operator.id, status: to, deactivated_at: now.toISOString(), sessions_revoked: live, api_keys_revoked: apiKeysRevoked };
  },
});
