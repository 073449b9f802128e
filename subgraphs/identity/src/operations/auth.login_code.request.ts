import { present, defineOperation, newId, t, sqlOf } from '@backoffice/platform';
import { authLoginCode } from '../events';
import { CODE_TTL_MS, LOGIN_FLOOR_MS, loginCodeWrites, newCode, spendLoginRate, storeByHandle, type AdminUserRow } from '../domain/operators';
import { STORE_HANDLE_PATTERN } from '../domain/tenants';

export const loginStoreField = t.string({
  minLength: 1,
  maxLength: 63,
  pattern: STORE_HANDLE_PATTERN,
  description: 'the handle of the store the operator logs in at (names the tenant)',
});

/**
 * Public: mails an operator a one-time code. The answer is the same whether or not the email
 * belongs to an operator of the store, and the rate limits are spent alike.
 */
export const authLoginCodeRequest = defineOperation({
  name: 'auth.login_code.request',
  kind: 'command',
  access: 'public',
  scope: null,
  summary:
    'Public (extension): asks for a one-time login code for an operator of a store; a 6-digit code valid 10 minutes ' +
    'is mailed (event auth.login_code); the 2 latest earlier codes stay valid. The answer never says whether the ' +
    'email is known. Rate limited per email (5, then one per 3 minutes) and per client address (30, then one per 30 ' +
    'seconds): rate_limited.',
  input: t.object({ store: loginStoreField, email: t.email() }),
  result: t.object({ requested: t.boolean(), expires_in_seconds: t.integer({ minimum: 1 }) }),
  events: [authLoginCode],
  // Known email or not, the answer comes at the same time (after the writes of a known one).
  minimumAnswerMs: LOGIN_FLOOR_MS,
  async handler({ input, db, stage, emit, attribute, client_address }) {
    await spendLoginRate('code', client_address ?? null, input.email);
    const answer = { requested: true, expires_in_seconds: CODE_TTL_MS / 1000 };
    const store = await storeByHandle(db, input.store);
    const [operator] = store
      ? await sqlOf(db).rows<AdminUserRow>(
          `SELECT u.* FROM identity.admin_user u JOIN identity.admin_user_status s ON s.status = u.status
           WHERE u.tenant_id = $1 AND lower(u.email) = lower($2) AND s.can_log_in`,
          [store.tenant_id, input.email.trim()],
        )
      : [];
    if (!store || !operator) return answer;
    const loginCodeId = newId('lcd');
    const code = newCode();
    const expiresAt = new Date(Date.now() + CODE_TTL_MS);
    for (const write of loginCodeWrites(operator, loginCodeId, code, expiresAt, true)) stage(write.sql, write.params);
    present(attribute, 'attribute')({ tenant_id: operator.tenant_id, actor_id: operator.id, actor_name: operator.name });
    emit(authLoginCode, {
      login_code_id: loginCodeId,
      admin_user_id: operator.id,
      email: operator.email,
      name: operator.name,
      locale: operator.locale,
      store_id: store.id,
      store_handle: store.handle,
      expires_at: expiresAt.toISOString(),
    });
    return answer;
  },
});
