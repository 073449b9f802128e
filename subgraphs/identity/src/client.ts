import { INTERNAL_SECRET_HEADER, internalToken, type Actor, type AuditRow } from '@backoffice/platform';

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
