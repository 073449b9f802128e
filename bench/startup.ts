import { execFileSync, spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Measurement } from './measure';
import type { BenchContext, Scenario } from './run';

/**
 * How fast the CLI and MCP over stdio start, against a bare `node -e 0` on the same machine in the
 * same run: each command is launched as `npm run backoffice` launches it (scripts/run.mjs), the four
 * kinds of start interleaved so that a busy neighbour weighs on all alike; medians compared.
 */
const ROOT = resolve(__dirname, '..');
const CLI = [join(ROOT, 'scripts', 'run.mjs'), 'gateway/src/cli'];
/** Starts of each kind (BENCH_STARTUP_RUNS, default 15). */
const RUNS = Math.max(3, Number(process.env.BENCH_STARTUP_RUNS) || 15);
/** Most a start may take before the bench gives up on it. */
const START_TIMEOUT_MS = 60_000;

const INITIALIZE = `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`;

/** Milliseconds from spawn to exit (exit code 0 required), or to the first stdout line when `answered` (then killed). */
function timed(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<number> {
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['pipe', 'pipe', 'pipe'] });
  const elapsed = () => Number(process.hrtime.bigint() - started) / 1e6;
  return new Promise((ok, fail) => {
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      // An MCP answer: the first whole line on stdout.
      if (input && stdout.includes('\n')) {
        const ms = elapsed();
        child.kill();
        if (stdout.includes('"result"')) ok(ms);
        else fail(new Error(`MCP answered ${stdout.slice(0, 300)}`));
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (input) return fail(new Error(`MCP exited (${code}) before answering: ${stderr.slice(0, 300)}`));
      if (code === 0) ok(elapsed());
      else fail(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(0, 300)}`));
    });
    if (input) child.stdin.write(input);
    else child.stdin.end();
  });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round = (n: number) => Math.round(n * 10) / 10;

/** Whether dist/ is fresh, as scripts/run.mjs decides: else the CLI runs through tsx, and the figures say so. */
const builtFresh = () =>
  execFileSync(
    process.execPath,
    ['--input-type=module', '-e', "import { builtFresh } from './scripts/build-inputs.mjs'; process.stdout.write(String(builtFresh('.')))"],
    { cwd: ROOT, encoding: 'utf8' },
  ) === 'true';

export const cliStartup: Scenario = {
  name: 'cli_startup',
  description: `CLI --help, a CLI call (read.internal.whoami) and MCP over stdio's initialize answer, each against a bare node -e 0 (medians of ${RUNS} interleaved starts)`,
  async run(ctx: BenchContext): Promise<Measurement> {
    const env = { ...process.env, BACKOFFICE_URL: ctx.target.url, BACKOFFICE_TOKEN: ctx.target.token, NODE_ENV: 'production' };
    const kinds: Record<string, () => Promise<number>> = {
      node: () => timed(['-e', '0'], env),
      help: () => timed([...CLI, '--help'], env),
      call: () => timed([...CLI, 'read.internal.whoami'], env),
      mcp: () => timed([...CLI, 'mcp'], env, INITIALIZE),
    };
    const fresh = builtFresh();
    if (!fresh) ctx.log('cli_startup: dist/ is missing or stale, so the CLI runs its sources through tsx: run npm run build first');
    const samples: Record<string, number[]> = Object.fromEntries(Object.keys(kinds).map((k) => [k, []]));
    const started = Date.now();
    // One start of each first, unmeasured: the file system's cache is warm for every kind alike.
    for (const start of Object.values(kinds)) await start();
    for (let i = 0; i < RUNS; i++) for (const [kind, start] of Object.entries(kinds)) samples[kind].push(await start());
    const ms = Object.fromEntries(Object.entries(samples).map(([kind, values]) => [kind, round(median(values))]));
    const ratio = (kind: string) => Math.round((ms[kind] / ms.node) * 100) / 100;
    const target = (kind: string, limit: number) => ({ value: ratio(kind), target: `<= ${limit}`, pass: ratio(kind) <= limit });
    const all = Object.values(samples)
      .flat()
      .sort((a, b) => a - b);
    return {
      rps: round(
        (all.length * 1000) /
          Object.values(samples)
            .flat()
            .reduce((a, b) => a + b, 0),
      ),
      latency_ms: {
        mean: round(all.reduce((a, b) => a + b, 0) / all.length),
        p50: round(median(all)),
        p99: round(all[Math.floor(all.length * 0.99)]),
        max: round(all.at(-1)!),
      },
      total: all.length,
      non2xx: 0,
      errors: 0,
      timeouts: 0,
      duration_s: Math.round((Date.now() - started) / 100) / 10,
      connections: 1,
      cpu_percent: { server: null, loadgen: 0, postgres: null, kernel: null, other: null },
      note: `median ms: node -e 0 ${ms.node}, --help ${ms.help}, call ${ms.call}, MCP initialize ${ms.mcp}${fresh ? ' (compiled dist/)' : ' (STALE dist/: tsx)'}`,
      extra: {
        median_ms: ms,
        compiled: fresh,
        targets: { cli_help_over_node: target('help', 8), cli_call_over_node: target('call', 12), mcp_initialize_over_node: target('mcp', 15) },
      },
    };
  },
};
