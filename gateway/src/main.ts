import { startSystem } from './system';

/** `npm start`: the whole system in one process. `GATEWAY_ONLY=1` fronts subgraphs started separately. */
async function main() {
  const system = await startSystem({ remoteSubgraphs: process.env.GATEWAY_ONLY === '1', log: (line) => console.error(line) });
  console.log(`back office ready
  GraphQL   ${system.url}/graphql
  REST      ${system.url}/v1/commands/<name>  ${system.url}/v1/read/...
  OpenAPI   ${system.url}/v1/openapi.json
  health    ${system.url}/healthz  ${system.url}/readyz
  database  ${system.database.embedded ? `embedded PostgreSQL (data in ${process.env.DATA_DIR ?? './.data'})` : 'DATABASE_URL'}
Create a tenant and its owner key: npm run backoffice -- tenant create --name "My shop" --store my-shop`);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await system.stop();
    process.exit(0);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
