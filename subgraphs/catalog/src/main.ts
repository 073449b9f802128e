import { remoteDirectory, remoteIdentity } from '@backoffice/contracts';
import { runStandalone } from '@backoffice/platform';
import { catalog } from './index';
import { catalogSkus } from './domain/checkout-skus';

const identityUrl = process.env.IDENTITY_URL ?? 'http://127.0.0.1:4001';
const secret = process.env.CONTEXT_SECRET ?? '';
// A bearer a router forwards is asked of identity (its /internal/authenticate), as the gateway does.
const identity = remoteIdentity(identityUrl, secret);

const strings = (value: unknown) => (Array.isArray(value) ? value.map(String).slice(0, 1000) : []);

// What other subgraphs ask of the catalog over HTTP (orders: SKU prices and shipping attributes at checkout and in quotes).
void runStandalone(
  catalog,
  (runtime) => ({
    skus: async (body) => ({
      skus: await catalogSkus(runtime.dataSource).skus(String(body.tenant_id ?? ''), strings(body.sku_ids), body.store_id ? String(body.store_id) : undefined),
    }),
  }),
  // Store changes are heard on the shared database (identity's notifications): forgotten at once.
  (database) => ({ stores: remoteDirectory(identityUrl, secret, { listen: { connection: database.url, log: database.log } }) }),
  () => identity.authenticate,
);
