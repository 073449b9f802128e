import { internalCaller, type Actor, type AuditRow } from '@backoffice/platform';

// What identity serves to the gateway and to content besides stores: who a bearer is, the audit of refusals, login codes to mail.

/** What the mail of a login code needs; the code in clear exists only here and in the mail. */
export interface LoginCodeMail {
  login_code_id: string;
  admin_user_id: string;
  tenant_id: string;
  code: string;
  email: string;
  name: string;
  locale: string;
  expires_at: string;
}

/**
 * The mail pipeline's handoff of login codes. The `auth.login_code` event carries `login_code_id`,
 * never the code; the mailer opens the code here, in identity's process, while the code is still
 * usable (not expired, not used, attempts left). Opening it again (a retried send) gives the same code.
 */
export interface LoginCodeHandoff {
  open(loginCodeId: string): Promise<LoginCodeMail | null>;
}

/** A POST to one of identity's internal endpoints (`/internal/<name>`), guarded by the shared secret. */
const internalPost = (baseUrl: string, secret: string) => internalCaller('identity', baseUrl, secret);

/**
 * What other processes need from identity: who a bearer token is, and a place for the audit rows of
 * calls refused before any subgraph ran them. Identity owns both tables; nobody else reads them.
 * The gateway uses it, and so do the other subgraphs when a router forwards the bearer to them.
 */
export interface IdentityClient {
  authenticate(token: string): Promise<Actor | null>;
  recordAudit(row: AuditRow): void;
}

/**
 * Identity in another process: its internal endpoints, guarded by the shared secret. Nothing is
 * remembered here: every token is asked for, so identity's own memory of live credentials (and the
 * way it forgets them, see "Remembered credentials") is the only one.
 */
export function remoteIdentity(baseUrl: string, secret: string, log: (line: string) => void = console.error): IdentityClient {
  const post = internalPost(baseUrl, secret);
  return {
    authenticate: async (token) => (await post<{ actor: Actor | null }>('authenticate', { token })).actor,
    recordAudit: (row) => void post('audit', row).catch((error: Error) => log(`audit: ${error.message}`)),
  };
}

/**
 * The login-code handoff of identity in another process (its `/internal/login_code`): the code
 * crosses only this internal call, guarded by the shared secret, on the deployment's own network.
 */
export function remoteLoginCodeHandoff(baseUrl: string, secret: string): LoginCodeHandoff {
  const post = internalPost(baseUrl, secret);
  return { open: async (loginCodeId) => (await post<{ login_code: LoginCodeMail | null }>('login_code', { login_code_id: loginCodeId })).login_code };
}
