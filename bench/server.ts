/**
 * The system under test, in its own process so the load generator does not share its thread.
 * Started by bench/run.ts with DATABASE_URL pointing at a fresh database. It starts the whole
 * back office (gateway + REST shim + in-process subgraphs), creates a tenant, serves the identity
 * subgraph alone over HTTP as well, and prints one JSON line (BenchTarget) on stdout. Everything
 * else goes to stderr. It stops when stdin closes (the parent went away) or on SIGTERM/SIGINT.
 */
import { randomBytes } from 'node:crypto';
import { freePort } from '../platform/src/db/locate';
import { serveSubgraph } from '../platform/src/serve-subgraph';
import { authenticatorOf } from '../subgraphs/identity/src/domain/authenticate';
import { createTenant } from '../subgraphs/identity/src/domain/tenants';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { startSystem } from '../gateway/src/system';
import type { BenchTarget } from './target';

async function main() {
  if (!process.env.DATABASE_URL) throw new Error('bench/server.ts needs DATABASE_URL (a database it may fill)');
  const log = (line: string) => process.stderr.write(`[server] ${line}\n`);
  const contextSecret = randomBytes(32).toString('base64url');
  const system = await startSystem({
    port: 0,
    host: '127.0.0.1',
    log,
    contextSecret,
    limiter: new MemoryRateLimiter({ ratePerSecond: 1e9, burst: 1e9 }),
  });
  const identity = system.runtimes.get('identity');
  if (!identity) throw new Error('the system has no identity subgraph');
  const tenant = await createTenant(identity.dataSource, { name: 'Bench', store: `bench-${Date.now().toString(36)}`, never_expires: true });
  const actor = await authenticatorOf(identity).authenticate(tenant.token);
  if (!actor) throw new Error('the freshly created owner token does not authenticate');
  const subgraph = await serveSubgraph(identity, await freePort(), {}, '127.0.0.1');

  let stopping: Promise<void> | null = null;
  const stop = () =>
    (stopping ??= (async () => {
      try {
        await subgraph.close();
        await system.stop();
      } catch (error) {
        log(`stop: ${(error as Error).message}`);
      }
      // process.exit (not a kill) so that --cpu-prof, when given, writes its profile.
      process.exit(0);
    })());
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  process.stdin.on('end', () => void stop());
  process.stdin.on('error', () => void stop());
  process.stdin.resume();

  const target: BenchTarget = {
    url: system.url,
    token: tenant.token,
    subgraphUrl: subgraph.url,
    contextSecret,
    actor,
    tenant_id: tenant.tenant_id,
    store_id: tenant.store_id,
    pid: process.pid,
  };
  process.stdout.write(`${JSON.stringify(target)}\n`);
}

main().catch((error: Error) => {
  process.stderr.write(`[server] failed: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
