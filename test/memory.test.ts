import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { freePort } from '../platform/src/db/locate';
import { freshDatabase } from './helpers';
import { untilReady } from './start-command';

/**
 * An anonymous caller sends thousands of large, all different, parameters: the server stays up and
 * its memory stays put (every cache is bounded in bytes, every public string in length). The
 * server runs as its own process with a heap capped at HEAP_MiB: 5000 distinct 1 MB values are
 * 5 GB, so a cache keeping even one in twenty of them would end the process out of memory; the
 * resident size, which also counts buffers outside the heap, is measured too.
 */
const ROOT = join(__dirname, '..');
const REQUESTS = Number(process.env.MEMORY_TEST_REQUESTS) || 5000;
const CONCURRENCY = 8;
const MiB = 1024 * 1024;
const HEAP_MiB = 256;

const rssOf = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;

async function startServer(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MiB}`, '--import', 'tsx', 'gateway/src/main.ts'], {
    cwd: ROOT,
    // Rate limits as in production would refuse most of these before their body is looked at.
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      NODE_ENV: 'production',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await untilReady(child, 60_000, false);
  return child;
}

it(`${REQUESTS} anonymous requests with distinct 1 MB parameters leave the server up within a 256 MiB heap, its resident memory grown by less than 160 MiB`, async () => {
  const database = await freshDatabase();
  const port = await freePort();
  const server = await startServer(database.url, port);
  try {
    // 1 MB (10^6 bytes): with its envelope the body stays under the 1 MiB body limit, so each is read whole.
    // Made once; each request's copy gets its own first characters, so every value differs (and the client stays cheap).
    const query = 'query($s: String!) { read_products(input: {store: $s}) { total } }';
    const template = Buffer.from(JSON.stringify({ query, variables: { s: 'x'.repeat(1_000_000) } }));
    const valueAt = template.indexOf('"s":"') + 5;
    let sent = 0;
    const statuses = new Map<number, number>();
    const send = async (i: number) => {
      const body = Buffer.from(template);
      body.write(i.toString(36).padStart(8, '0'), valueAt, 'latin1');
      // undici's request: fetch's streams would make the client, not the server, the slow side.
      const res = await request(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      await res.body.dump();
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    };
    const run = async (count: number) => {
      const until = sent + count;
      const workers = Array.from({ length: CONCURRENCY }, async () => {
        while (sent < until) await send(sent++);
      });
      await Promise.all(workers);
    };
    // Warm-up until the heap has grown to its working size (V8 sizes it to the garbage 1 MB bodies make).
    await run(1000);
    const before = rssOf(server.pid!);
    await run(REQUESTS);
    const after = rssOf(server.pid!);
    console.log(
      `memory: ${REQUESTS} requests of 1 MiB; resident ${(before / MiB).toFixed(0)} MiB → ${(after / MiB).toFixed(0)} ` +
        `MiB (${((after - before) / MiB).toFixed(1)} MiB); statuses ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect([...statuses.keys()].every((status) => status < 500)).toBe(true);
    // Not tighter: the heap grows toward its cap with the 1 MB garbage (CI on 2 cores saw +122 MiB uncapped).
    expect(after - before).toBeLessThan(160 * MiB);
    const alive = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(alive.status).toBe(200);
  } finally {
    const exited = new Promise((ok) => server.once('exit', ok));
    server.kill('SIGTERM');
    await exited;
    await database.drop();
  }
}, 900_000);
