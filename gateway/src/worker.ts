import { randomBytes } from 'node:crypto';
import Fastify from 'fastify';
import { EventBus, registerMetricsEndpoint, type SubgraphRuntime } from '@backoffice/platform';
import { startSubgraphs } from './start-subgraphs';

export interface Worker {
  /** Its /healthz, /readyz and /metrics. */
  url: string;
  bus: EventBus;
  runtimes: Map<string, SubgraphRuntime>;
  stop(): Promise<void>;
}

/**
 * A worker: every subgraph's background work (consumers, tasks, scheduled jobs, relays) in a process
 * that serves no requests, on the database the request processes use; they run with CONSUMERS=off and
 * JOBS=off (docs/deployment.md). It answers only /healthz, /readyz and /metrics. With no requests to
 * yield to, its batches take the whole BACKGROUND_CONCURRENCY.
 */
export async function startWorker(options: { url: string; log: (line: string) => void; port: number; host: string }): Promise<Worker> {
  // Consumers and jobs are what this process is for: on, whatever the environment says of requests' processes.
  const bus = await new EventBus({ url: options.url, log: options.log, consumers: true, jobs: process.env.JOBS !== 'off' }).start();
  // No request reaches its subgraphs: the context secret is never used, but a runtime must have one.
  const runtimes = await startSubgraphs({ url: options.url, contextSecret: randomBytes(32).toString('base64url'), log: options.log, bus });
  const app = Fastify({ logger: false });
  registerMetricsEndpoint(app);
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_, reply) => {
    const ready = await Promise.all([...runtimes.values()].map((r) => r.ready()));
    return ready.every(Boolean) ? { status: 'ready' } : reply.code(503).send({ status: 'unavailable' });
  });
  await app.listen({ port: options.port, host: options.host });
  const address = app.server.address();
  return {
    url: `http://${options.host}:${typeof address === 'object' && address ? address.port : options.port}`,
    bus,
    runtimes,
    async stop() {
      await app.close();
      await bus.stop();
      for (const runtime of runtimes.values()) await runtime.stop();
    },
  };
}
