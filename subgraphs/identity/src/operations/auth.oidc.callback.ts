import { defineOperation, t, unauthorized, sqlOf } from '@backoffice/platform';
import { adminUserActivated } from '../events';
import { logIn, sessionResult, stateHash, type AdminUserRow } from '../domain/operators';
import { oidc, oidcConfiguration } from '../domain/oidc';

/**
 * Public: finishes an OIDC login. The attempt (`state`) is used up first, in a transaction of its
 * own; the code is exchanged with PKCE, the ID token's nonce checked, and the operator matched by
 * the provider's verified email among the operators of the store the login began at.
 */
export const authOidcCallback = defineOperation({
  name: 'auth.oidc.callback',
  kind: 'command',
  access: 'public',
  scope: null,
  summary:
    "Public (extension): finishes an OIDC login (GET /v1/auth/oidc/callback calls it with the provider's code, " +
    "state and iss): the code is exchanged with the PKCE verifier, the ID token's nonce checked, and the operator " +
    "of the login's store is matched by the provider's verified email. Answers a session like " +
    'auth.login_code.verify; the first login activates an invited operator. unauthorized for an unknown, expired or ' +
    'used state, a refused exchange, an unverified email or no such operator.',
  input: t.object({
    code: t.string({ minLength: 1, maxLength: 2048 }),
    state: t.string({ minLength: 1, maxLength: 512 }),
    iss: t.optional(t.string({ minLength: 1, maxLength: 2000 })),
    binding: t.string({ minLength: 32, maxLength: 128, description: 'the value given at auth.oidc.start (the callback route reads it from its cookie)' }),
  }),
  result: sessionResult,
  events: [adminUserActivated],
  async handler({ input, sql, stage, emit, attribute, separately }) {
    const [login] = await separately((own) =>
      sqlOf(own).returning<{ tenant_id: string; store_id: string; nonce: string; code_verifier: string; redirect_uri: string }>(
        `UPDATE identity.oidc_login SET used_at = now() WHERE state_hash = $1 AND binding_hash = $2 AND used_at IS NULL AND expires_at > now() RETURNING *`,
        [stateHash(input.state), stateHash(input.binding)],
      ),
    );
    if (!login) throw unauthorized('the login attempt is unknown, expired, already used or started in another browser: start again');
    const config = await oidcConfiguration();
    const current = new URL(login.redirect_uri);
    current.searchParams.set('code', input.code);
    current.searchParams.set('state', input.state);
    if (input.iss !== undefined) current.searchParams.set('iss', input.iss);
    let claims: Record<string, unknown>;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: login.code_verifier,
        expectedState: input.state,
        expectedNonce: login.nonce,
        idTokenExpected: true,
      });
      claims = { ...(tokens.claims() ?? {}) };
      if (typeof claims.email !== 'string' && tokens.access_token) {
        claims = { ...claims, ...(await oidc.fetchUserInfo(config, tokens.access_token, String(claims.sub))) };
      }
    } catch (error) {
      throw unauthorized(`the identity provider did not complete the login: ${(error as Error).message}`);
    }
    if (typeof claims.email !== 'string' || claims.email_verified !== true) throw unauthorized('the identity provider gave no verified email');
    const [operator] = await sql.rows<AdminUserRow>(
      `SELECT u.* FROM identity.admin_user u JOIN identity.admin_user_status s ON s.status = u.status
       WHERE u.tenant_id = $1 AND lower(u.email) = lower($2) AND s.can_log_in FOR NO KEY UPDATE OF u`,
      [login.tenant_id, claims.email],
    );
    if (!operator) throw unauthorized('no operator of this store has that email');
    return logIn({ stage, emit, attribute }, operator, 'oidc');
  },
});
