import { remoteDirectory, remoteIdentity, remoteLoginCodeHandoff, remoteStoreSenders } from '@backoffice/contracts';
import { vaultFromEnv } from './domain/vault';
import { runStandalone } from '@backoffice/platform';
import { content, mailerFromEnv } from './index';

// A bearer a router forwards is asked of identity (its /internal/authenticate), as the gateway does.
const identityUrl = process.env.IDENTITY_URL ?? 'http://127.0.0.1:4001';
const secret = process.env.CONTEXT_SECRET ?? '';
const identity = remoteIdentity(identityUrl, secret);

// VAULT_KEY: the same in every process that runs content (a generated key is per DATA_DIR).
// A store's sender settings and the login codes to mail are identity's: asked of its internal endpoints.
const mail = mailerFromEnv();
console.log(`mail      ${mail.description}`);

void runStandalone(
  content,
  undefined,
  (database) => ({
    stores: remoteDirectory(identityUrl, secret, { listen: { connection: database.url, log: database.log } }),
    vault: vaultFromEnv(),
    senders: remoteStoreSenders(identityUrl, secret),
    loginCodes: remoteLoginCodeHandoff(identityUrl, secret),
    mail,
  }),
  () => identity.authenticate,
);
