import { EventBus } from './bus/event-bus';
import { openDatabase } from './db/locate';
import { lineLog, rootLogger } from './observability/logger';
import { startTracing, stopTracing } from './observability/tracing';
import type { Authenticate } from './admission';
import { createRateLimiter, rateLimitConfig } from './rate-limit';
import { serveSubgraph, type InternalRoutes } from './serve-subgraph';
import { SubgraphRuntime, type SubgraphDefinition } from './subgraph';
import { trustProxyOf } from './subgraph-access';

/**
 * Runs one subgraph as its own process: `<NAME>_PORT` (or its default port), DATABASE_URL, and the
 * CONTEXT_SECRET it shares with the gateway. With `authenticate`, it also answers a router that
 * forwards `Authorization: Bearer` (rate limits as the gateway's: RATE_LIMIT_*, REDIS_URL; client
 * address from `x-forwarded-for` only with TRUST_PROXY); see docs/routers.md.
 */
export async function runStandalone<P extends object>(
  definition: SubgraphDefinition<P>,
  internal: ((runtime: SubgraphRuntime) => InternalRoutes) | undefined,
  /**
   * The ports the subgraph declares, reaching the others over HTTP; a function is given the database
   * (e.g. to listen there for another subgraph's notifications).
   */
  ports: P | ((database: { url: string; log: (line: string) => void }) => P),
  authenticate?: (runtime: SubgraphRuntime) => Authenticate,
) {
  const secret = process.env.CONTEXT_SECRET;
  if (!secret || secret.length < 32) {
    console.error('CONTEXT_SECRET (at least 32 characters, shared with the gateway) must be set');
    process.exit(1);
  }
  // JSON lines through pino (LOG_LEVEL); spans when OTEL_EXPORTER_OTLP_ENDPOINT is set.
  const log = lineLog(rootLogger().child({ subgraph: definition.name }));
  startTracing({ serviceName: `backoffice-${definition.name}` });
  const database = await openDatabase(log);
  const bus = await new EventBus({ url: database.url, log }).start();
  const given = typeof ports === 'function' ? (ports as (database: { url: string; log: (line: string) => void }) => P)({ url: database.url, log }) : ports;
  const runtime = await new SubgraphRuntime(definition, { url: database.url, contextSecret: secret, ports: given, bus, log }).start();
  const port = Number(process.env[`${definition.name.toUpperCase()}_PORT`]) || definition.defaultPort;
  const limiter = authenticate ? createRateLimiter(rateLimitConfig(), process.env.REDIS_URL, log) : null;
  const server = await serveSubgraph(runtime, port, internal?.(runtime) ?? {}, undefined, {
    access: authenticate && limiter ? { authenticate: authenticate(runtime), limiter } : undefined,
    trustProxy: trustProxyOf(process.env.TRUST_PROXY),
  });
  console.log(`${definition.name} subgraph at ${server.url}`);
  const shutdown = async () => {
    await server.close();
    await limiter?.close();
    await bus.stop();
    await runtime.stop();
    await database.stop();
    await stopTracing();
    process.exit(0);
  };
  process.once('SIGTERM', shutdown);
  process.once('SIGINT', shutdown);
}
