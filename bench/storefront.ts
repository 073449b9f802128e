/**
 * Storefront scenarios of `npm run bench` (issue: the public read at the limit).
 *
 * storefront_throughput (default): on the catalog_products store (100,000 products), at
 *   BENCH_CONNECTIONS (32) connections, pages 1..20 of read.products in rotation, feed and full pages
 *   of 24, against whoami through the REST shim, in alternating rounds of one run, every client
 *   sending `Accept-Encoding: gzip, deflate, br` as browsers and CDNs do. Twice: as deployed (the page
 *   cache on) and on a second instance with the page cache off (every page built from the stored
 *   documents and gzipped per answer); and full pages once more uncompressed. Targets, as deployed:
 *   feed >= 0.5 x whoami, full >= 0.3 x whoami; uncached, feed >= 0.3 x whoami; the other ratios are
 *   reported beside them.
 * storefront_memory (opt-in: BENCH_ONLY names it): BENCH_MEMORY_SECONDS (600) of mixed page load
 *   (feed and full, pages 1..50, every filter and sort) with a product updated every 2 s (each
 *   update renders documents and bumps the catalog version, so the cache keeps turning over);
 *   resident memory of the server sampled every 5 s after a 60 s warm-up. Target: flat, i.e. the
 *   end at most 10% + 16 MiB above the start.
 */
import { readFileSync } from 'node:fs';
import { httpLoad, type HttpLoad, type Measurement } from './measure';
import { seededStore, uncachedServer } from './catalog';
import type { BenchContext, Scenario } from './run';
import type { BenchTarget } from './target';

const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;
const PAGES = 20;

/** What browsers and CDNs send: every side asks alike (whoami's answer is too small to be compressed). */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };

function rotating(target: BenchTarget, build: (i: number) => string, headers: Record<string, string> = BROWSER): HttpLoad {
  let i = 0;
  return { url: `${target.url}${build(0)}`, method: 'GET', headers, paths: () => build(++i) };
}

const whoami = (ctx: BenchContext): HttpLoad => ({
  url: `${ctx.target.url}/v1/read/internal/whoami`,
  method: 'GET',
  headers: { ...BROWSER, authorization: `Bearer ${ctx.target.token}` },
});

/** Refuses to measure fast errors: the page must answer 200 with 24 items. */
async function probe(url: string, check: (body: Record<string, unknown>) => boolean): Promise<void> {
  const response = await fetch(url);
  const text = await response.text();
  if (response.status !== 200 || !check(JSON.parse(text) as Record<string, unknown>))
    throw new Error(`probe of ${url} answered ${response.status}: ${text.slice(0, 300)}`);
}

export const storefrontThroughput: Scenario = {
  name: 'storefront_throughput',
  description:
    'read.products pages of 24 (feed, full; pages 1..20 rotating) at N connections vs whoami through the REST shim, 100,000 products, page cache on (as deployed) and off',
  async run(ctx) {
    const store = await seededStore(ctx);
    const uncached = await uncachedServer(ctx);
    const page = (projection: string) => (i: number) => `/v1/read/products?store=${store.store_id}&limit=24&projection=${projection}&page=${(i % PAGES) + 1}`;
    const sides: [string, HttpLoad, number][] = [
      ['whoami_rest', whoami(ctx), ctx.target.pid],
      ['feed_24', rotating(ctx.target, page('feed')), ctx.target.pid],
      ['full_24', rotating(ctx.target, page('full')), ctx.target.pid],
      ['full_24_identity', rotating(ctx.target, page('full'), {}), ctx.target.pid],
      ['feed_24_uncached', rotating(uncached, page('feed')), uncached.pid],
      ['full_24_uncached', rotating(uncached, page('full')), uncached.pid],
    ];
    for (const [name, load] of sides) {
      if (name !== 'whoami_rest') await probe(load.url, (body) => Array.isArray(body.items) && body.items.length === 24);
    }
    const measured = new Map<string, Measurement[]>(sides.map(([name]) => [name, []]));
    const rounds = ctx.config.rounds;
    const seconds = Math.max(1, Math.round(ctx.config.seconds / rounds));
    for (let r = 0; r < rounds; r++) {
      for (const [name, load, pid] of sides) {
        const warmupSeconds = r === 0 ? ctx.config.warmupSeconds : Math.min(1, ctx.config.warmupSeconds);
        ctx.log(`storefront ${name} (round ${r + 1}/${rounds}): ${warmupSeconds} s warm-up + ${seconds} s`);
        measured
          .get(name)!
          .push(await httpLoad(load, { connections: ctx.config.connections, seconds, warmupSeconds, watched: { ...ctx.watched, serverPid: pid } }));
      }
    }
    const figures: Record<string, unknown> = { products: store.products, pages_rotated: PAGES };
    const rps: Record<string, number> = {};
    for (const [name] of sides) {
      const rounds = measured.get(name)!;
      const total = rounds.reduce((s, m) => s + m.rps * m.duration_s, 0);
      const duration = rounds.reduce((s, m) => s + m.duration_s, 0);
      rps[name] = Math.round((total / duration) * 10) / 10;
      figures[name] = {
        rps: rps[name],
        rounds_rps: rounds.map((m) => m.rps),
        p50_ms: rounds.map((m) => m.latency_ms.p50).sort((a, b) => a - b)[Math.floor(rounds.length / 2)],
        p99_ms: Math.max(...rounds.map((m) => m.latency_ms.p99)),
        non2xx: rounds.reduce((s, m) => s + m.non2xx, 0),
        errors: rounds.reduce((s, m) => s + m.errors + m.timeouts, 0),
        cpu_server_percent: rounds.at(-1)!.cpu_percent.server,
        cpu_postgres_percent: rounds.at(-1)!.cpu_percent.postgres,
      };
      ctx.log(`storefront ${name}: ${JSON.stringify(figures[name])}`);
    }
    const over = (name: string) => round(rps[name] / rps.whoami_rest);
    const atLeast = (name: string, least: number) => ({ value: over(name), target: `>= ${least}`, pass: over(name) >= least });
    figures.other_ratios = {
      full_24_identity_over_whoami: over('full_24_identity'),
      full_24_uncached_over_whoami: over('full_24_uncached'),
    };
    figures.targets = {
      feed_24_over_whoami: atLeast('feed_24', 0.5),
      full_24_over_whoami: atLeast('full_24', 0.3),
      feed_24_uncached_over_whoami: atLeast('feed_24_uncached', 0.3),
    };
    const main = measured.get('feed_24')!;
    return { ...main.at(-1)!, rps: rps.feed_24, extra: figures, note: 'the row is the feed page of 24 as deployed; every side in extra' };
  },
};

/** Resident memory of a process in bytes (VmRSS of /proc/<pid>/status). */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
}

const MIB = 1024 * 1024;
const mib = (bytes: number) => Math.round((bytes / MIB) * 10) / 10;

/** Every shape of page a storefront asks for: projections, pages, filters, sorts. */
function mixedPaths(storeId: string): string[] {
  const filters = [
    '',
    '&category=apparel',
    '&category=apparel.tops',
    '&option.color=red',
    '&option.size=M',
    '&price_min=2000&price_max=6000',
    '&cf.season=winter',
    '&sort=price_asc',
    '&sort=title_asc',
    '&facets=options,price',
  ];
  const paths: string[] = [];
  for (const projection of ['feed', 'full']) {
    for (const filter of filters) {
      for (let page = 1; page <= 50; page++) paths.push(`/v1/read/products?store=${storeId}&limit=24&projection=${projection}&page=${page}${filter}`);
    }
  }
  return paths;
}

export const storefrontMemory: Scenario = {
  name: 'storefront_memory',
  description:
    'resident memory of the server over BENCH_MEMORY_SECONDS (600) of mixed read.products load with a product update every 2 s, after a 60 s warm-up',
  async run(ctx) {
    const store = await seededStore(ctx);
    const seconds = Number(process.env.BENCH_MEMORY_SECONDS) > 0 ? Number(process.env.BENCH_MEMORY_SECONDS) : 600;
    const paths = mixedPaths(store.store_id);
    const load: HttpLoad = {
      url: `${ctx.target.url}${paths[0]}`,
      method: 'GET',
      headers: BROWSER,
      paths: () => paths[Math.floor(Math.random() * paths.length)],
    };
    // Products to update: the first page's.
    const first = (await (await fetch(`${ctx.target.url}${paths[0]}`)).json()) as { items: { product_id: string }[] };
    let updates = 0;
    let updateErrors = 0;
    const update = async () => {
      const product = first.items[(updates + updateErrors) % first.items.length];
      const response = await fetch(`${ctx.target.url}/v1/commands/catalog.product.update`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ product_id: product.product_id, title: `Bench product ${updates}` }),
      });
      const body = await response.text();
      if (response.status === 200) updates += 1;
      else updateErrors += 1;
      return { status: response.status, body };
    };
    // Refuses to measure reads without the writes: the first update must go through.
    const probe = await update();
    if (probe.status !== 200) throw new Error(`storefront memory: catalog.product.update answered ${probe.status}: ${probe.body.slice(0, 300)}`);
    let writing = true;
    const writer = (async () => {
      while (writing) {
        await update();
        await new Promise((ok) => setTimeout(ok, 2000));
      }
    })();
    ctx.log(`storefront memory: 60 s warm-up, then ${seconds} s`);
    await httpLoad(load, { connections: ctx.config.connections, seconds: 60, warmupSeconds: 0, watched: ctx.watched });
    const samples: number[] = [rss(ctx.target.pid)];
    const sampler = setInterval(() => samples.push(rss(ctx.target.pid)), 5000);
    let measured: Measurement;
    try {
      measured = await httpLoad(load, { connections: ctx.config.connections, seconds, warmupSeconds: 0, watched: ctx.watched });
    } finally {
      clearInterval(sampler);
      writing = false;
      await writer;
    }
    samples.push(rss(ctx.target.pid));
    const start = samples[0];
    const end = samples.at(-1)!;
    const limit = start * 1.1 + 16 * MIB;
    const everyMinute = samples.filter((_, i) => i % 12 === 0).map(mib);
    const figures = {
      seconds,
      pages_mixed: paths.length,
      product_updates: updates,
      product_update_errors: updateErrors,
      rss_mib: { start: mib(start), end: mib(end), min: mib(Math.min(...samples)), max: mib(Math.max(...samples)), every_minute: everyMinute },
      targets: { rss_end_over_start: { value: round(end / start), target: '<= 1.1 (+16 MiB)', pass: end <= limit } },
    };
    ctx.log(`storefront memory: ${JSON.stringify(figures)}`);
    return { ...measured, extra: figures };
  },
};
