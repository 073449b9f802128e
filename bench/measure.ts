import autocannon from 'autocannon';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** One scenario's numbers, as written to results.json. */
export interface Measurement {
  /** Requests (or transactions) per second over the measured window, mean of the per-second samples. */
  rps: number;
  latency_ms: { mean: number; p50: number; p99: number; max: number };
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration_s: number;
  connections: number;
  /**
   * CPU used during the measured window, in percent of one core (200 = two cores busy): the server
   * process; this process (the load generator); local PostgreSQL, i.e. the bench database's backends
   * plus the shared background processes (null when the database is not on this machine); kernel
   * threads and interrupts (I/O, loopback networking). `other` is everything else the machine ran
   * meanwhile (other databases' backends included), which should be near 0 for comparable numbers.
   * `subgraphs`, only when the measurement watched subgraph processes (`Watched.subgraphPids`): their
   * CPU together, then not counted in `other`.
   */
  cpu_percent: { server: number | null; loadgen: number; postgres: number | null; kernel: number | null; other: number | null; subgraphs?: number | null };
  /** What a single probe request answered before the load started. */
  probe?: { status: number; ok: boolean; body: string };
  note?: string;
  /** Scenario-specific observations (e.g. the outbox backlog a command left behind). */
  extra?: Record<string, unknown>;
}

export interface HttpLoad {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /**
   * Headers that go stale (a signed context lives 60 s): when warm-up + run last longer than
   * `everyMs`, they are recomputed that often during the run (costing the load generator a
   * request rebuild per request); shorter runs send `headers` as they are.
   */
  refresh?: { everyMs: number; headers: () => Record<string, string> };
  /** A fresh body for each request (e.g. a different basket per checkout); unset: `body` every time. */
  bodies?: () => string;
  /** A fresh path (and query) for each request (e.g. pages rotating); unset: the path of `url`. */
  paths?: () => string;
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

let ticks: number | undefined;
/** Kernel clock ticks per second (the unit of /proc/<pid>/stat times); 100 on nearly every Linux. */
function clockTicks(): number {
  if (ticks === undefined) {
    try {
      ticks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticks = 100;
    }
  }
  return ticks;
}

/** User + system CPU seconds in the text of /proc/<pid>/stat (fields 14 and 15 of proc(5)). */
function cpuOfStat(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks();
}

/** CPU seconds a process has used so far (user + system), from /proc; null when unavailable. */
function processCpuSeconds(pid: number): number | null {
  try {
    return cpuOfStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/** Processes whose CPU a measurement attributes: the server, and PostgreSQL for one database. */
export interface Watched {
  serverPid: number;
  /** Backends of this database count as postgres; backends of other databases count as other. */
  database: string;
  /** Subgraphs run as their own processes behind the server (a router): counted apart, as `subgraphs`. */
  subgraphPids?: number[];
}

/** A client backend's title: `postgres: 15/main: <user> <database> <host>(<port>) <state>`. */
const BACKEND_TITLE = /^postgres: [^:]+: \S+ (\S+) (?:\[local\]|\S+\(\d+\))/;

/** CPU seconds used so far, per pid, of what a measurement tells apart. */
interface CpuSnapshot {
  server: number | null;
  /** The watched subgraph processes together (null when none are watched or one is gone). */
  subgraphs: number | null;
  /** This database's backends and PostgreSQL's shared background processes (WAL writer, checkpointer...). */
  postgres: Map<number, number>;
  /** Kernel threads (I/O completion, journaling...): children of kthreadd. */
  kthreads: Map<number, number>;
  /** Interrupt and softirq time (loopback networking is mostly here), machine-wide. */
  irq: number | null;
  /** Everything the machine ran (all cores, not idle or iowait). */
  busy: number | null;
}

function snapshot(watched: Watched): CpuSnapshot {
  const subgraphs = watched.subgraphPids?.length ? watched.subgraphPids.map(processCpuSeconds) : [];
  const shot: CpuSnapshot = {
    server: processCpuSeconds(watched.serverPid),
    subgraphs: subgraphs.length && subgraphs.every((s) => s !== null) ? subgraphs.reduce((sum: number, s) => sum + s!, 0) : null,
    postgres: new Map(),
    kthreads: new Map(),
    irq: null,
    busy: null,
  };
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal guest...: busy is everything but idle, iowait and guest.
    shot.busy = cpu.slice(0, 8).reduce((sum, v, i) => (i === 3 || i === 4 ? sum : sum + v), 0) / clockTicks();
    shot.irq = (cpu[5] + cpu[6]) / clockTicks();
  } catch {
    // not Linux
  }
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return shot;
  }
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === 2 || pid === '2') {
        shot.kthreads.set(Number(pid), cpuOfStat(stat));
      } else if (comm === 'postgres') {
        const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
        const backendOf = BACKEND_TITLE.exec(title)?.[1];
        if (backendOf === undefined || backendOf === watched.database) shot.postgres.set(Number(pid), cpuOfStat(stat));
      }
    } catch {
      // gone meanwhile
    }
  }
  return shot;
}

function grown(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, seconds] of after) sum += seconds - (before.get(pid) ?? 0);
  return sum;
}

/** Measures CPU of the server (and its subgraph processes), this process, this database's PostgreSQL, the kernel and the rest over `work`. */
export async function withCpu<T>(watched: Watched, work: () => Promise<T>): Promise<{ value: T; cpu: Measurement['cpu_percent'] }> {
  const before = snapshot(watched);
  const selfBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const value = await work();
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const self = process.cpuUsage(selfBefore);
  const after = snapshot(watched);
  const percent = (cpuSeconds: number) => round((cpuSeconds / wall) * 100, 0);
  const server = before.server === null || after.server === null ? null : after.server - before.server;
  const loadgen = (self.user + self.system) / 1e6;
  const postgres = after.postgres.size ? grown(before.postgres, after.postgres) : null;
  const kernel = before.irq === null || after.irq === null ? null : after.irq - before.irq + grown(before.kthreads, after.kthreads);
  const subgraphs = before.subgraphs === null || after.subgraphs === null ? null : after.subgraphs - before.subgraphs;
  const other =
    before.busy === null || after.busy === null
      ? null
      : Math.max(0, after.busy - before.busy - (server ?? 0) - (subgraphs ?? 0) - loadgen - (postgres ?? 0) - (kernel ?? 0));
  return {
    value,
    cpu: {
      server: server === null ? null : percent(server),
      loadgen: percent(loadgen),
      postgres: postgres === null ? null : percent(postgres),
      kernel: kernel === null ? null : percent(kernel),
      other: other === null ? null : percent(other),
      ...(watched.subgraphPids?.length ? { subgraphs: subgraphs === null ? null : percent(subgraphs) } : {}),
    },
  };
}

/** autocannon against one endpoint: a warm-up run (discarded), then the measured run. */
export async function httpLoad(
  load: HttpLoad,
  /** `rate`: requests per second over all connections (paced load); unset: as fast as answers come. */
  options: { connections: number; seconds: number; warmupSeconds: number; watched: Watched; rate?: number },
): Promise<Measurement> {
  const refresh = load.refresh && (options.warmupSeconds + options.seconds) * 1000 > load.refresh.everyMs ? load.refresh : null;
  let fresh = { at: Date.now(), headers: load.headers };
  const { bodies, paths } = load;
  const requests =
    refresh || bodies || paths
      ? [
          {
            setupRequest: (request: autocannon.Request) => {
              if (refresh && Date.now() - fresh.at > refresh.everyMs) fresh = { at: Date.now(), headers: { ...load.headers, ...refresh.headers() } };
              return { ...request, headers: fresh.headers, ...(bodies ? { body: bodies() } : {}), ...(paths ? { path: paths() } : {}) };
            },
          },
        ]
      : undefined;
  const run = (duration: number) =>
    autocannon({
      url: load.url,
      method: load.method,
      headers: load.headers,
      body: load.body,
      connections: options.connections,
      duration,
      timeout: 30,
      requests,
      ...(options.rate ? { overallRate: options.rate } : {}),
    });
  if (options.warmupSeconds > 0) await run(options.warmupSeconds);
  const { value: result, cpu } = await withCpu(options.watched, () => run(options.seconds));
  return {
    rps: round(result.requests.mean, 1),
    latency_ms: { mean: round(result.latency.mean), p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    total: result['1xx'] + result['2xx'] + result['3xx'] + result['4xx'] + result['5xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    duration_s: round(result.duration, 2),
    connections: options.connections,
    cpu_percent: cpu,
  };
}

/** `workers` concurrent loops of `step` for `seconds`; each resolved step is one counted operation. */
export async function loopLoad(step: () => Promise<unknown>, options: { workers: number; seconds: number; watched: Watched }): Promise<Measurement> {
  const latencies: number[] = [];
  const perSecond: number[] = [];
  let errors = 0;
  let lastError: string | undefined;
  const { value: elapsed, cpu } = await withCpu(options.watched, async () => {
    const started = process.hrtime.bigint();
    const deadline = started + BigInt(Math.round(options.seconds * 1e9));
    const worker = async () => {
      for (;;) {
        const t0 = process.hrtime.bigint();
        if (t0 >= deadline) return;
        try {
          await step();
          const t1 = process.hrtime.bigint();
          latencies.push(Number(t1 - t0) / 1e6);
          const second = Number((t1 - started) / 1_000_000_000n);
          perSecond[second] = (perSecond[second] ?? 0) + 1;
        } catch (error) {
          errors += 1;
          lastError = (error as Error).message;
        }
      }
    };
    await Promise.all(Array.from({ length: options.workers }, worker));
    return Number(process.hrtime.bigint() - started) / 1e9;
  });
  latencies.sort((a, b) => a - b);
  const at = (q: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] : 0);
  const mean = latencies.length ? latencies.reduce((s, v) => s + v, 0) / latencies.length : 0;
  // Whole seconds only, as autocannon does (the last, partial second would drag the mean down).
  const full = perSecond.slice(0, Math.floor(elapsed)).map((n) => n ?? 0);
  const rps = full.length ? full.reduce((s, v) => s + v, 0) / full.length : latencies.length / elapsed;
  return {
    rps: round(rps, 1),
    latency_ms: { mean: round(mean), p50: round(at(0.5)), p99: round(at(0.99)), max: round(latencies[latencies.length - 1] ?? 0) },
    total: latencies.length,
    non2xx: 0,
    errors,
    timeouts: 0,
    duration_s: round(elapsed, 2),
    connections: options.workers,
    cpu_percent: cpu,
    ...(lastError ? { note: `last error: ${lastError}` } : {}),
  };
}
