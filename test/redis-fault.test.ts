import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, Socket } from 'node:net';
import { createRateLimiter, type RateLimiter } from '@backoffice/platform';
import { RedisRateLimiter } from '../platform/src/rate-limit';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/** A TCP port nothing listens on (taken from the OS, then released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const children = new Set<ChildProcess>();

/** A throwaway redis-server of this test alone (the machine's shared one is never touched). */
async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  children.add(child);
  child.once('exit', () => children.delete(child));
  await eventually(
    () =>
      new Promise<true | undefined>((resolve) => {
        const socket = new Socket();
        socket.once('connect', () => {
          socket.destroy();
          resolve(true);
        });
        socket.once('error', () => {
          socket.destroy();
          resolve(undefined);
        });
        socket.connect(port, '127.0.0.1');
      }),
    10_000,
  );
  return child;
}

async function killRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

afterAll(async () => {
  for (const child of [...children]) {
    if (child.signalCode === 'SIGSTOP' || child.killed) child.kill('SIGCONT');
    await killRedis(child);
  }
});

async function readyz(t: TestSystem): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${t.url}/readyz`);
  return { status: response.status, body: await response.json() };
}

/** A public read and an authenticated read, both served. */
async function serves(t: TestSystem): Promise<void> {
  const products = await t.read('/products', { store: t.tenant.store_id }, null);
  expect(products.status).toBe(200);
  expect(products.headers.get('ratelimit')).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
  const whoami = await t.read('/internal/whoami');
  expect(whoami.status).toBe(200);
  expect(whoami.body.tenant_id).toBe(t.tenant.tenant_id);
}

const redisLines = (logs: string[], word: string) => logs.filter((line) => line.startsWith('rate limits: Redis') && line.includes(word));

describe('Redis away', () => {
  it('unreachable from the start: serves with per-process buckets, /readyz degraded, one warning', async () => {
    const logs: string[] = [];
    const limiter = createRateLimiter({ ratePerSecond: 0.01, burst: 1000 }, `redis://127.0.0.1:${await freePort()}`, (line) => logs.push(line));
    const t = await startTestSystem({ limiter });
    try {
      for (let i = 0; i < 5; i++) await serves(t);
      const refused = await t.read('/internal/whoami', {}, `bok_01ARZ3NDEKTSV4RRFFQ69G5FA0_${'x'.repeat(43)}`);
      expect(refused.status).toBe(401);
      expect(refused.headers.get('ratelimit')).toMatch(/^limit=1000, remaining=999, /);
      expect(await readyz(t)).toEqual({ status: 200, body: { status: 'degraded', degraded: ['redis'] } });
      // Limits still hold, per process.
      expect((await limiter.consume('spent', 1000)).allowed).toBe(true);
      expect((await limiter.consume('spent')).allowed).toBe(false);
      // Several reconnection attempts later: still the one line.
      await new Promise((r) => setTimeout(r, 1000));
      await serves(t);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/^rate limits: Redis at 127\.0\.0\.1:\d+ unreachable \(.*ECONNREFUSED.*\); limiting per process/);
    } finally {
      await t.stop();
    }
  });

  it('slow to connect on a busy machine: no warning, since nothing failed', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const logs: string[] = [];
    const limiter = new RedisRateLimiter(`redis://127.0.0.1:${port}`, { ratePerSecond: 1, burst: 10 }, `backoffice:test:${randomBytes(4).toString('hex')}:`, {
      log: (line) => logs.push(line),
    });
    try {
      // The event loop held past the start's wait (connect timeout + 500 ms), as a loaded start does:
      // that wait and the connection's own events then come due together.
      const until = Date.now() + 1700;
      while (Date.now() < until);
      await eventually(async () => (limiter.health() === 'ok' ? true : undefined));
      expect((await limiter.consume('k')).remaining).toBe(9);
      expect(logs).toEqual([]);
    } finally {
      await limiter.close();
      await killRedis(redis);
    }
  });

  it('lost later: per-process buckets meanwhile, shared again when it is back; one line each way', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const url = `redis://127.0.0.1:${port}`;
    const prefix = `backoffice:test:${randomBytes(4).toString('hex')}:`;
    const config = { ratePerSecond: 0.01, burst: 1000 };
    const logs: string[] = [];
    const a = new RedisRateLimiter(url, config, prefix, { log: (line) => logs.push(line) });
    const b: RateLimiter = new RedisRateLimiter(url, config, prefix, { log: () => undefined });
    const t = await startTestSystem({ limiter: a });
    let keys = 0;
    /** Whether a bucket emptied through `a` is empty for `b` too (one shared bucket). */
    const agree = async () => {
      const key = `agree:${++keys}`;
      expect((await a.consume(key, config.burst)).allowed).toBe(true);
      return !(await b.consume(key)).allowed;
    };
    try {
      await serves(t);
      expect(await agree()).toBe(true);
      expect(await readyz(t)).toEqual({ status: 200, body: { status: 'ready' } });
      expect(a.health()).toBe('ok');

      await killRedis(redis);
      await eventually(async () => (a.health() === 'degraded' ? true : undefined));
      for (let i = 0; i < 5; i++) await serves(t);
      expect(await readyz(t)).toEqual({ status: 200, body: { status: 'degraded', degraded: ['redis'] } });
      expect(await agree()).toBe(false); // each process limits on its own meanwhile
      await new Promise((r) => setTimeout(r, 500));
      expect(redisLines(logs, 'lost')).toHaveLength(1);
      expect(logs).toHaveLength(1);

      redis = await startRedis(port);
      await eventually(async () => ((await readyz(t)).body as { status: string }).status === 'ready' || undefined, 10_000);
      expect(await agree()).toBe(true);
      await serves(t);
      expect(redisLines(logs, 'is back')).toHaveLength(1);
      expect(logs).toHaveLength(2);
    } finally {
      await t.stop();
      await b.close();
      await killRedis(redis);
    }
  });

  it('hung (commands time out on a live connection): answers without waiting on it, and recovers', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const logs: string[] = [];
    const a = new RedisRateLimiter(`redis://127.0.0.1:${port}`, { ratePerSecond: 0.01, burst: 1000 }, `backoffice:test:${randomBytes(4).toString('hex')}:`, {
      log: (line) => logs.push(line),
      commandTimeout: 100,
    });
    const t = await startTestSystem({ limiter: a });
    try {
      await serves(t);
      redis.kill('SIGSTOP');
      const started = Date.now();
      for (let i = 0; i < 10; i++) await serves(t);
      // Ten rounds of two requests: at most a few of them wait for a command's timeout.
      expect(Date.now() - started).toBeLessThan(2000);
      expect(a.health()).toBe('degraded');
      expect(await readyz(t)).toEqual({ status: 200, body: { status: 'degraded', degraded: ['redis'] } });
      expect(redisLines(logs, 'lost')).toHaveLength(1);
      expect(logs[0]).toMatch(/timed out/i);

      redis.kill('SIGCONT');
      // One request a second tries Redis again; the first to succeed brings the shared buckets back.
      await eventually(async () => {
        await a.consume('probe', 0);
        return a.health() === 'ok' || undefined;
      }, 10_000);
      expect(await readyz(t)).toEqual({ status: 200, body: { status: 'ready' } });
      expect(redisLines(logs, 'is back')).toHaveLength(1);
      expect(logs).toHaveLength(2);
    } finally {
      await t.stop();
      await killRedis(redis);
    }
  });
});
