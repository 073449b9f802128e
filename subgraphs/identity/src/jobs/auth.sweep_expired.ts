import { job, sqlOf } from '@backoffice/platform';

/**
 * Every hour, what logins leave behind once it can no longer be used: a one-time code's sealed copy
 * as soon as the code expires; codes, OIDC attempts and sessions a day after they expired or ended
 * (kept that long to answer "why was I refused").
 */
export const sweepExpiredLoginsJob = job('auth.sweep_expired', { every: '1 hour' }, async ({ dataSource }) => {
  const sql = sqlOf(dataSource);
  await sql.run(`UPDATE identity.login_code SET sealed_code = NULL WHERE sealed_code IS NOT NULL AND expires_at <= now()`);
  await sql.run(`DELETE FROM identity.login_code WHERE expires_at < now() - interval '1 day'`);
  await sql.run(`DELETE FROM identity.oidc_login WHERE expires_at < now() - interval '1 day'`);
  await sql.run(`DELETE FROM identity.operator_session WHERE coalesce(revoked_at, expires_at) < now() - interval '1 day'`);
});
