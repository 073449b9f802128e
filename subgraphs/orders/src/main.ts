import { remoteCatalogSkus, remoteDirectory, remoteIdentity } from '@backoffice/contracts';
import { runStandalone } from '@backoffice/platform';
import { acceptReported, orders } from './index';

const identityUrl = process.env.IDENTITY_URL ?? 'http://127.0.0.1:4001';
const catalogUrl = process.env.CATALOG_URL ?? 'http://127.0.0.1:4002';
const secret = process.env.CONTEXT_SECRET ?? '';
// A bearer a router forwards is asked of identity (its /internal/authenticate), as the gateway does.
const identity = remoteIdentity(identityUrl, secret);

void runStandalone(
  orders,
  undefined,
  // Store changes are heard on the shared database (identity's notifications): forgotten at once.
  (database) => ({
    catalog: remoteCatalogSkus(catalogUrl, secret),
    stores: remoteDirectory(identityUrl, secret, { listen: { connection: database.url, log: database.log } }),
    payments: acceptReported,
  }),
  () => identity.authenticate,
);
