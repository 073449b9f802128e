import { seedCatalog } from '@backoffice/catalog';
import { createTenant, ownerSignIn, type SignIn } from '@backoffice/identity';
import { stopTracing } from '@backoffice/platform';
import { startSystem, type System } from './system';
import { removeInstance, writeInstance } from './instance-file';
import { mailerFromEnv } from '@backoffice/content';

/** Products of the demo catalog a newcomer gets on the first start. */
const DEMO_PRODUCTS = 300;
/** The demo tenant's owner operator, who signs in to the admin front-end. */
const DEMO_OWNER = 'owner@demo.example';

/** The admin's sign-in page with what it posts to /v1/auth/session, in the fragment (which no server, log or Referer sees). */
const signInLink = (url: string, signIn: SignIn) =>
  `${url}/admin/sign-in#${new URLSearchParams({ store: signIn.store, email: signIn.email, code: signIn.code })}`;

/** Where the mail of this process goes: the content subgraph's mailer, or another process's. */
const mailDescription = () => (process.env.GATEWAY_ONLY === '1' ? 'sent by the content subgraph (elsewhere)' : mailerFromEnv().description);

/**
 * First start of the embedded default (an empty data folder; never with DATABASE_URL): a demo
 * tenant with a seeded catalog, its owner token and store printed once with a ready curl line, and
 * its owner operator with a one-time sign-in link to the admin front-end.
 */
async function firstRunDemo(system: System): Promise<void> {
  const identityRuntime = system.runtimes.get('identity');
  const catalogRuntime = system.runtimes.get('catalog');
  if (!identityRuntime || !catalogRuntime) return;
  const tenant = await createTenant(identityRuntime.dataSource, { name: 'Demo shop', store: 'demo', never_expires: true });
  await seedCatalog(catalogRuntime.dataSource, { tenant_id: tenant.tenant_id, store_ids: [tenant.store_id], products: DEMO_PRODUCTS, seed: 1 });
  const signIn = await ownerSignIn(identityRuntime.dataSource, tenant.tenant_id, DEMO_OWNER);
  console.log(`
First start: a demo tenant with ${DEMO_PRODUCTS} products was created. Its owner token is shown this once:
  tenant    ${tenant.tenant_id}
  store     demo (${tenant.store_id})
  token     ${tenant.token}
Try:
  curl '${system.url}/v1/read/products?store=demo&status=active&limit=5&projection=feed'
  curl -H 'Authorization: Bearer ${tenant.token}' ${system.url}/v1/read/internal/whoami
  explorer ${system.url}/graphql#token=${tenant.token}   (open it in a browser: the token fills its headers)
The admin front-end, signed in as the demo's owner operator ${DEMO_OWNER} (the link works once, for 10 minutes):
  ${signInLink(system.url, signIn)}
  Later sign-ins ask for a code by email: ${mailDescription()}
`);
}

/** `npm start`: the whole system in one process. `GATEWAY_ONLY=1` fronts subgraphs started separately. */
async function main() {
  // Logs go through pino (LOG_LEVEL; pretty on a terminal), spans to OTEL_EXPORTER_OTLP_ENDPOINT when set.
  const system = await startSystem({ remoteSubgraphs: process.env.GATEWAY_ONLY === '1' });
  // Signals are handled from here on: a stop while the first-run demo is seeded waits for it (it is
  // short) rather than dying with the instance file left behind and the seed half-written.
  let demo: Promise<void> = Promise.resolve();
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    removeInstance();
    await demo;
    await system.stop();
    await stopTracing();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  // For the CLI: this address, and the database (the embedded one under DATA_DIR unless DATABASE_URL; none with GATEWAY_ONLY).
  writeInstance(system.url, system.database.url, system.database.url !== '' && !process.env.DATABASE_URL);
  console.log(`back office ready
  GraphQL   ${system.url}/graphql  (explorer: open it in a browser)
  REST      ${system.url}/v1/commands/<name>  ${system.url}/v1/read/...  (docs: ${system.url}/v1/docs)
  OpenAPI   ${system.url}/v1/openapi.json
  MCP       ${system.url}/mcp  (Streamable HTTP; stdio: npm run --silent backoffice -- mcp)
  admin     ${system.url}/admin  (the admin front-end; operators sign in with a code mailed to them)
  metrics   ${system.url}/metrics
  health    ${system.url}/healthz  ${system.url}/readyz
  database  ${system.database.description ?? 'none in this process (the subgraphs run elsewhere)'}
  mail      ${mailDescription()}
Create a tenant and its owner key: npm run backoffice -- tenant create --name "My shop" --store my-shop`);
  if (system.database.embedded && system.database.fresh && !process.env.DATABASE_URL) {
    demo = firstRunDemo(system).catch((error: Error) => console.error(`the demo tenant could not be created: ${error.message}`));
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
