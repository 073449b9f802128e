import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The benchmarks' short variant (`npm run test:long` runs them whole, as `npm run bench`): a second
 * of each of a few scenarios over a small catalog, so a change that breaks the bench (a scenario's
 * probe, its seeding, a ratio's sides) fails here rather than at the next measurement. Figures are
 * not judged: a shared machine makes a second's figures noise.
 */
const SCENARIOS = ['whoami_rest', 'whoami_subgraph_direct', 'graphql_path', 'checkout_rest', 'checkout_bare_sql'];

it('runs the bench’s scenarios: every request answered, no error', async () => {
  const results = join(mkdtempSync(join(tmpdir(), 'bo-bench-smoke-')), 'results.json');
  const env = {
    ...process.env,
    BENCH_SECONDS: '1',
    BENCH_WARMUP_SECONDS: '0',
    BENCH_ROUNDS: '1',
    BENCH_CONNECTIONS: '4',
    BENCH_CATALOG_PRODUCTS: '200',
    BENCH_ONLY: SCENARIOS.join(','),
    BENCH_RESULTS: results,
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/run.ts'], { cwd: join(__dirname, '..'), env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect([code, output.slice(-2000)]).toEqual([0, expect.any(String)]);
  const { scenarios } = JSON.parse(readFileSync(results, 'utf8')) as { scenarios: Record<string, { rps: number; non2xx: number; errors: number }> };
  for (const name of SCENARIOS) {
    expect([name, scenarios[name]?.non2xx, scenarios[name]?.errors, scenarios[name]?.rps > 0]).toEqual([name, 0, 0, true]);
  }
}, 300_000);
