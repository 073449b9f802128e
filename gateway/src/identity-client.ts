import { authenticatorOf, type IdentityClient } from '@backoffice/identity';
import type { SubgraphRuntime } from '@backoffice/platform';

// Identity's client lives with identity: subgraphs run alone use it too (a router forwarding the bearer).
export { remoteIdentity, type IdentityClient } from '@backoffice/identity';

export function inProcessIdentity(runtime: SubgraphRuntime): IdentityClient {
  const authenticator = authenticatorOf(runtime);
  return {
    authenticate: (token) => authenticator.authenticate(token),
    recordAudit: (row) => runtime.audit.record(row),
  };
}
