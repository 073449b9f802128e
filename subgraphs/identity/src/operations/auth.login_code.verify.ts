import { defineOperation, t } from '@backoffice/platform';
import { adminUserActivated } from '../events';
import { badCode, checkLoginCode, LOGIN_FLOOR_MS, logIn, sessionResult, spendLoginRate, storeByHandle, type AdminUserRow } from '../domain/operators';
import { loginStoreField } from './auth.login_code.request';

/** Public: trades a one-time code for a session; the first login activates an invited operator. */
export const authLoginCodeVerify = defineOperation({
  name: 'auth.login_code.verify',
  kind: 'command',
  access: 'public',
  scope: null,
  summary:
    'Public (extension): trades the latest one-time code mailed to an operator for a session (an opaque Bearer ' +
    "token valid 12 hours). A code works once, for 10 minutes; the operator's latest 3 codes are live, and a wrong " +
    'code spends an attempt of each (5 per code). After 5 failed logins (across codes, while codes are live; ' +
    'forgotten after a day without one) code logins wait 1 minute, doubling up to an hour; a login ends the count. ' +
    'Every failure is the same unauthorized answer, no sooner than 100 ms after the call. The first login activates ' +
    'an invited operator. Rate limited per client address (30, then one per 30 seconds).',
  input: t.object({ store: loginStoreField, email: t.email(), code: t.string({ minLength: 6, maxLength: 6, pattern: '^[0-9]{6}$' }) }),
  result: sessionResult,
  events: [adminUserActivated],
  // Whatever the email and the code, every failure answers at the same time.
  minimumAnswerMs: LOGIN_FLOOR_MS,
  async handler({ input, sql, stage, emit, attribute, separately, client_address }) {
    await spendLoginRate('verify', client_address ?? null);
    // Judged in a transaction of its own, before this command's (never two connections at once): a
    // failure counts even though this command fails.
    const match = await separately(async (own) => {
      const store = await storeByHandle(own, input.store);
      return store ? checkLoginCode(own, store.tenant_id, input.email, input.code) : null;
    });
    if (!match) throw badCode();
    // The operator first, then its codes: the order checkLoginCode and deactivation lock them in.
    const [operator] = await sql.rows<AdminUserRow>(
      `SELECT u.* FROM identity.admin_user u JOIN identity.admin_user_status s ON s.status = u.status WHERE u.id = $1 AND s.can_log_in FOR NO KEY UPDATE OF u`,
      [match.admin_user_id],
    );
    if (!operator) throw badCode();
    // Used once, and the operator's other live codes end with it: a second verification of the same
    // code racing this one finds it used.
    const ended = await sql.returning<{ id: string }>(
      `UPDATE identity.login_code SET used_at = now(), sealed_code = NULL WHERE admin_user_id = $1 AND used_at IS NULL RETURNING id`,
      [match.admin_user_id],
    );
    if (!ended.some((row) => row.id === match.id)) throw badCode();
    return logIn({ stage, emit, attribute }, operator, 'login_code');
  },
});
