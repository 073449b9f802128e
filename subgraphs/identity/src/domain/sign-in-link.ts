import { newId, sqlOf } from '@backoffice/platform';
import type { DataSource } from 'typeorm';
import { CODE_TTL_MS, defaultLocale, loginCodeWrites, newCode, primaryStore, type AdminUserRow } from './operators';

/** What `POST /v1/auth/session` (auth.login_code.verify) takes: a sign-in link carries it. */
export interface SignIn {
  store: string;
  email: string;
  code: string;
  expires_at: string;
}

/**
 * A sign-in for the tenant's owner operator of `email`, handed over by whoever runs the process rather
 * than mailed (the first start's demo prints it as a link): the operator is invited as `owner` when
 * the tenant has none of that email, then given a login code by the same rules as
 * auth.login_code.request (10 minutes, one use, the latest codes kept), with no sealed copy: the code
 * is never mailed. Its first login activates the operator, as for any invitation.
 */
export async function ownerSignIn(dataSource: DataSource, tenantId: string, email: string): Promise<SignIn> {
  return dataSource.transaction(async (db) => {
    const sql = sqlOf(db);
    const store = await primaryStore(db, tenantId);
    const [found] = await sql.rows<Pick<AdminUserRow, 'id' | 'tenant_id'>>(
      `SELECT u.id, u.tenant_id FROM identity.admin_user u JOIN identity.admin_user_status s ON s.status = u.status
       WHERE u.tenant_id = $1 AND lower(u.email) = lower($2) AND u.role = 'owner' AND s.can_log_in FOR NO KEY UPDATE OF u`,
      [tenantId, email],
    );
    const operator = found ?? { id: newId('adm'), tenant_id: tenantId };
    if (!found) {
      await sql.run(`INSERT INTO identity.admin_user (id, tenant_id, email, name, role, locale, status) VALUES ($1, $2, $3, $4, 'owner', $5, 'invited')`, [
        operator.id,
        tenantId,
        email,
        email.slice(0, email.lastIndexOf('@')),
        defaultLocale(),
      ]);
    }
    const loginCodeId = newId('lcd');
    const code = newCode();
    const expiresAt = new Date(Date.now() + CODE_TTL_MS);
    for (const write of loginCodeWrites(operator, loginCodeId, code, expiresAt, false)) await sql.run(write.sql, write.params);
    return { store: store.handle, email, code, expires_at: expiresAt.toISOString() };
  });
}
