import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { present, EventBus, lineLog, openDatabase, rootLogger, startTracing, type SubgraphRuntime, type Database, type Logger } from '@backoffice/platform';
import type { PaymentVerifier } from '@backoffice/orders';
import { SUPERGRAPH_FILE } from './compose';
import { InProcessDataSource, remoteDataSource } from './data-sources';
import { fastPathOn } from './graphql-fast-path';
import { remoteIdentity } from '@backoffice/contracts';
import { inProcessIdentity } from '@backoffice/identity';
import { createRateLimiter, type RateLimiter } from '@backoffice/platform';
import { createGatewayServer } from './server';
import { startSubgraphs } from './start-subgraphs';
import { SUBGRAPHS } from './subgraphs';
import { subgraphBaseUrls } from './subgraph-urls';

export interface SystemOptions {
  port?: number;
  host?: string;
  /** Subgraphs in other processes (docker-compose): reach them over HTTP instead of starting them here. */
  remoteSubgraphs?: boolean;
  limiter?: RateLimiter;
  contextSecret?: string;
  /** Lines of the platform (`asAppError`, relays, Redis…); default: written to `logger`. */
  log?: (line: string) => void;
  /** Where the per-request lines go; default: the process's pino logger (LOG_LEVEL). */
  logger?: Logger;
  /** The payment apps' verification of a reported payment; default: taken as reported (`acceptReported`). */
  payments?: PaymentVerifier;
  /** false: /graphql without its lane, every request on Apollo's path (default: GRAPHQL_FAST_PATH). */
  graphqlLane?: boolean;
  /** false: the subgraphs in this process run every document with graphql-js, not compiled (default: GRAPHQL_FAST_PATH). */
  compiledExecution?: boolean;
  /** The admin front-end's build served at /admin (default: the workspace's, `admin/dist`). */
  adminDist?: string;
}

export interface System {
  url: string;
  database: Database;
  runtimes: Map<string, SubgraphRuntime>;
  stop(): Promise<void>;
}

/**
 * Starts the whole back office: database (embedded unless DATABASE_URL), migrations, the four
 * subgraphs in this process, and the gateway with the REST shim in front of them.
 */
export async function startSystem(options: SystemOptions = {}): Promise<System> {
  const logger = options.logger ?? rootLogger();
  // Read before anything starts: a wrong value stops the start.
  const fastPath = fastPathOn();
  const log = options.log ?? lineLog(logger);
  // Fronting subgraphs that run elsewhere needs every one's address: refused before anything starts.
  const remote = options.remoteSubgraphs ? subgraphBaseUrls(SUBGRAPHS.map((s) => s.name)) : {};
  // Spans when OTEL_EXPORTER_OTLP_ENDPOINT is set (a test may have started tracing already).
  startTracing({ serviceName: 'backoffice' });
  const secret = options.contextSecret ?? process.env.CONTEXT_SECRET ?? randomBytes(32).toString('base64url');
  // Fronting subgraphs that run elsewhere, the gateway itself keeps no data.
  const database: Database = options.remoteSubgraphs ? { url: '', embedded: false, fresh: false, stop: async () => undefined } : await openDatabase(log);
  const runtimes = new Map<string, SubgraphRuntime>();
  // One bus for the process: every subgraph's relay publishes on it, its consumers and jobs work from it.
  const bus = options.remoteSubgraphs ? null : await new EventBus({ url: database.url, log }).start();
  if (!options.remoteSubgraphs) {
    // Each with its ports, from the subgraphs started before it (identity first).
    for (const [name, runtime] of await startSubgraphs({ url: database.url, contextSecret: secret, log, bus }, { payments: options.payments }))
      runtimes.set(name, runtime);
  }
  const limiter = options.limiter ?? createRateLimiter(undefined, undefined, log);
  const compiled = options.compiledExecution ?? fastPath;
  const localSources = new Map([...runtimes].map(([name, runtime]) => [name, new InProcessDataSource(runtime, compiled)] as const));
  const app = await createGatewayServer({
    supergraphSdl: readFileSync(SUPERGRAPH_FILE, 'utf8'),
    buildService: (name) => localSources.get(name) ?? remoteDataSource(`${remote[name]}/graphql`, name),
    localSources,
    identity: options.remoteSubgraphs
      ? remoteIdentity(remote.identity, secret, log)
      : inProcessIdentity(present(runtimes.get('identity'), 'the identity subgraph')),
    limiter,
    contextSecret: secret,
    graphqlLane: options.graphqlLane ?? fastPath,
    adminDist: options.adminDist,
    remoteSubgraphUrls: Object.fromEntries(Object.entries(remote).map(([name, base]) => [name, `${base}/graphql`])),
    ready: async () => {
      const checks = options.remoteSubgraphs
        ? Object.values(remote).map((base) =>
            fetch(`${base}/readyz`).then(
              (r) => r.ok,
              () => false,
            ),
          )
        : [...runtimes.values()].map((r) => r.ready());
      if (!(await Promise.all(checks)).every(Boolean)) return { status: 'unavailable' };
      // Without Redis the gateway still serves, limiting per process: ready, but degraded.
      return limiter.health() === 'degraded' ? { status: 'degraded', degraded: ['redis'] } : { status: 'ready' };
    },
    log,
    logger,
  });
  const port = options.port ?? (Number(process.env.PORT) || 4000);
  const host = options.host ?? process.env.HOST ?? '127.0.0.1';
  await app.listen({ port, host });
  const address = app.server.address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    database,
    runtimes,
    async stop() {
      await app.close();
      // Workers drain first; a relay publishing after that fails and its events are retried later.
      await bus?.stop();
      for (const runtime of runtimes.values()) await runtime.stop();
      await limiter.close();
      await database.stop();
    },
  };
}
