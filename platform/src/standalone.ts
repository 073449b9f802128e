import { openDatabase } from './db/locate';
import { serveSubgraph, type InternalRoutes } from './serve-subgraph';
import { SubgraphRuntime, type SubgraphDefinition } from './subgraph';

/**
 * Runs one subgraph as its own process: `<NAME>_PORT` (or its default port), DATABASE_URL, and the
 * CONTEXT_SECRET it shares with the gateway.
 */
export async function runStandalone(
  definition: SubgraphDefinition,
  internal?: (runtime: SubgraphRuntime) => InternalRoutes,
  services: Readonly<Record<string, unknown>> = {},
) {
  const secret = process.env.CONTEXT_SECRET;
  if (!secret || secret.length < 32) {
    console.error('CONTEXT_SECRET (at least 32 characters, shared with the gateway) must be set');
    process.exit(1);
  }
  const database = await openDatabase(console.error);
  const runtime = await new SubgraphRuntime(definition, { url: database.url, contextSecret: secret, services }).start();
  const port = Number(process.env[`${definition.name.toUpperCase()}_PORT`]) || definition.defaultPort;
  const server = await serveSubgraph(runtime, port, internal?.(runtime) ?? {});
  console.log(`${definition.name} subgraph at ${server.url}`);
  const shutdown = async () => {
    await server.close();
    await runtime.stop();
    await database.stop();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
