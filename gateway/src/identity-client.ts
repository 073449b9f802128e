import { authenticatorOf } from '@backoffice/identity';
import { INTERNAL_SECRET_HEADER, internalToken, type Actor, type AuditRow, type SubgraphRuntime } from '@backoffice/platform';

/**
 * What the gateway needs from identity: who a bearer token is, and a place for the audit rows of
 * calls the gateway itself refuses. Identity owns both tables; the gateway never reads them.
 */
export interface IdentityClient {
  authenticate(token: string): Promise<Actor | null>;
  recordAudit(row: AuditRow): void;
}

export function inProcessIdentity(runtime: SubgraphRuntime): IdentityClient {
  const authenticator = authenticatorOf(runtime);
  return {
    authenticate: (token) => authenticator.authenticate(token),
    recordAudit: (row) => runtime.audit.record(row),
  };
}

/** Identity in another process: its internal endpoints, guarded by the shared secret. */
export function remoteIdentity(baseUrl: string, secret: string, log: (line: string) => void = console.error): IdentityClient {
  const post = async (name: string, body: unknown) => {
    const response = await fetch(`${baseUrl}/internal/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [INTERNAL_SECRET_HEADER]: internalToken(secret) },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`identity /internal/${name} answered ${response.status}`);
    return response.json() as Promise<{ actor: Actor | null }>;
  };
  return {
    authenticate: async (token) => (await post('authenticate', { token })).actor,
    recordAudit: (row) => void post('audit', row).catch((error: Error) => log(`audit: ${error.message}`)),
  };
}
