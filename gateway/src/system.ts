import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cachedDirectory } from '@backoffice/catalog';
import { resolveStore } from '@backoffice/identity';
import { openDatabase, SubgraphRuntime, type Database } from '@backoffice/platform';
import { SUPERGRAPH_FILE } from './compose';
import { InProcessDataSource, remoteDataSource } from './data-sources';
import { inProcessIdentity, remoteIdentity } from './identity-client';
import { createRateLimiter, type RateLimiter } from './rate-limit';
import { createGatewayServer } from './server';
import { SUBGRAPHS } from './subgraphs';

export interface SystemOptions {
  port?: number;
  host?: string;
  /** Subgraphs in other processes (docker-compose): reach them over HTTP instead of starting them here. */
  remoteSubgraphs?: boolean;
  limiter?: RateLimiter;
  contextSecret?: string;
  log?: (line: string) => void;
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
  const log = options.log ?? console.error;
  const secret = options.contextSecret ?? process.env.CONTEXT_SECRET ?? randomBytes(32).toString('base64url');
  // Fronting subgraphs that run elsewhere, the gateway itself keeps no data.
  const database: Database = options.remoteSubgraphs
    ? { url: '', embedded: false, fresh: false, stop: async () => undefined }
    : await openDatabase(log);
  const runtimes = new Map<string, SubgraphRuntime>();
  if (!options.remoteSubgraphs) {
    // Identity first: the others reach it (in process) for what it owns, such as stores.
    const services: Record<string, unknown> = {};
    for (const definition of SUBGRAPHS) {
      runtimes.set(definition.name, await new SubgraphRuntime(definition, { url: database.url, contextSecret: secret, log, services }).start());
      if (definition.name === 'identity') {
        const identityRuntime = runtimes.get('identity')!;
        services.stores = cachedDirectory((ref) => resolveStore(identityRuntime.dataSource, ref));
      }
    }
  }
  const remoteBase = (name: string, url: string) => process.env[`${name.toUpperCase()}_URL`] ?? url.replace(/\/graphql$/, '');
  const limiter = options.limiter ?? createRateLimiter();
  const localSources = new Map([...runtimes].map(([name, runtime]) => [name, new InProcessDataSource(runtime)] as const));
  const app = await createGatewayServer({
    supergraphSdl: readFileSync(SUPERGRAPH_FILE, 'utf8'),
    buildService: (name, url) => localSources.get(name) ?? remoteDataSource(`${remoteBase(name, url)}/graphql`),
    localSources,
    identity: options.remoteSubgraphs
      ? remoteIdentity(remoteBase('identity', 'http://127.0.0.1:4001'), secret, log)
      : inProcessIdentity(runtimes.get('identity')!),
    limiter,
    contextSecret: secret,
    ready: async () => {
      const checks = options.remoteSubgraphs
        ? SUBGRAPHS.map((s) => fetch(`${remoteBase(s.name, `http://127.0.0.1:${s.defaultPort}`)}/readyz`).then((r) => r.ok, () => false))
        : [...runtimes.values()].map((r) => r.ready());
      return (await Promise.all(checks)).every(Boolean);
    },
    log,
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
      for (const runtime of runtimes.values()) await runtime.stop();
      await limiter.close();
      await database.stop();
    },
  };
}
