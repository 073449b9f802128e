/**
 * The fuzz run: seeds a little real data, draws cases with fast-check, sends each, judges the answer
 * (no 5xx, the documented shape, a listed kind, the kind the violation calls for) and checks that no
 * row appeared or vanished. Failures are collected by class rather than stopping at the first, so one
 * run lists every distinct problem; each class keeps a replayable example (seed and path).
 */
import fc from 'fast-check';
import type { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { mcpClient, type TestSystem } from '../helpers';
import { caseArbitrary, type FuzzCase } from './cases';
import { PROTOTYPE_NAMES, preview } from './json-text';
import { differences, rowCounter, settled } from './state';
import { send, type Answer, type Sender } from './surfaces';
import type { Pool } from './valid';

export interface FuzzOptions {
  runs: number;
  seed: number;
  /** fast-check's replay path: `FUZZ_PATH=137` starts at the 138th case (with runs 1: that case alone). */
  path?: string;
  /** Throw at the first failure, so fast-check reports (and shrinks) it itself. */
  failFast?: boolean;
  log?: (line: string) => void;
}

export interface FailureClass {
  key: string;
  count: number;
  ops: Set<string>;
  example: { path: number; c: FuzzCase; answer: Answer; problems: string[] };
}

export interface FuzzResult {
  runs: number;
  bySurface: Map<string, number>;
  byStatus: Map<number, number>;
  fiveXX: number;
  failedCases: number;
  classes: Map<string, FailureClass>;
  summary: string;
}

/** Real rows the generated ids sometimes point at, and names certain to point at nothing. */
export async function seedPool(t: TestSystem): Promise<Pool> {
  const ok = async (name: string, input: unknown) => {
    const res = await t.command(name, input);
    if (res.status !== 200) throw new Error(`seeding ${name}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const brand = await ok('catalog.brand.create', { name: 'Fuzz brand' });
  const category = await ok('catalog.category.create', { path: 'fuzz', name: 'Fuzz' });
  const product = await ok('catalog.product.create', {
    title: 'Fuzz product',
    handle: 'fuzz-product',
    status: 'active',
    brand_id: brand.brand_id,
    categories: [{ category_id: category.category_id }],
    custom_fields: { material: 'cotton' },
    metadata: { a: 1 },
  });
  await ok('catalog.option.create', { product_id: product.product_id, name: 'color', values: ['red', 'blue'], default_value: 'red' });
  const sku = await ok('catalog.sku.create', { product_id: product.product_id, amount: 1000, option_values: [{ option: 'color', value: 'blue' }] });
  const collection = await ok('catalog.collection.create', { handle: 'fuzz-collection', title: 'Fuzz' });
  await ok('catalog.collection.add_products', { collection_id: collection.collection_id, product_ids: [product.product_id] });
  await ok('catalog.product.publish', { product_id: product.product_id, store_id: t.tenant.store_id });
  // Not the owner's key: a wrongly committed rotation must not lock the run out.
  const key = await ok('iam.api_key.create', { name: 'fuzz-other', scopes: ['audit.read'] });
  const [store] = await t.sql('SELECT handle FROM identity.store WHERE id = $1', [t.tenant.store_id]);
  const stores = [t.tenant.store_id, store.handle as string];
  return {
    real: {
      api_key_id: [key.api_key_id],
      product_id: [product.product_id],
      sku_id: [sku.sku_id],
      store_id: stores,
      store: stores,
      owner_id: [product.product_id, sku.sku_id],
      collection_id: [collection.collection_id],
      brand_id: [brand.brand_id],
      category_id: [category.category_id],
      option: ['color'],
      name: ['color', 'material'],
    },
    missing: [
      'prd_01HZZZZZZZZZZZZZZZZZZZZZZZ',
      'sku_01HZZZZZZZZZZZZZZZZZZZZZZZ',
      'key_01HZZZZZZZZZZZZZZZZZZZZZZZ',
      'sto_missing',
      'nope-nothing',
      ...PROTOTYPE_NAMES,
    ],
  };
}

/** What is wrong with `answer` to `c`, as short class labels (empty: all is well). */
export function judge(c: FuzzCase, answer: Answer): string[] {
  const problems: string[] = [];
  if (answer.status >= 500 || answer.status === 0) problems.push(answer.status ? '5xx' : 'no answer');
  if (answer.shape) problems.push(`shape: ${answer.shape}`);
  for (const outcome of answer.outcomes) {
    if (outcome === 'ok') {
      if (!c.expect.ok) problems.push('accepted a certain violation');
    } else if (!c.listed.includes(outcome)) problems.push(`kind ${outcome} not listed by the operation`);
    else if (c.expect.kinds && outcome !== 'rate_limited' && !c.expect.kinds.includes(outcome as never))
      problems.push(`kind ${outcome}, expected ${c.expect.kinds.join('|')}`);
  }
  return problems;
}

function describeCase(c: FuzzCase): string {
  const r = c.request;
  const what =
    r.via === 'mcp-client'
      ? `MCP tools/call ${r.tool} ${preview(JSON.stringify(r.args))}`
      : `${r.method} ${preview(r.path, 200)}${r.body !== undefined ? ` body ${preview(r.body)}` : ''}`;
  return `[${c.surface} ${c.op} token=${c.token} ${c.labels.join('+')}] ${what}`;
}

/**
 * An answer slower than this is a failure too: a malformed input must be cheap to refuse, and what this catches is a
 * stall (an input whose cost grows exponentially takes seconds to minutes), not a busy machine's slow answer. Reading a
 * 1 MiB body on a loaded 2-core CI host took over 2 s, so the bound is well above that; speed itself is the bench's.
 */
const SLOW_MS = 10_000;

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

export async function runFuzz(t: TestSystem, pool: Pool, options: FuzzOptions): Promise<FuzzResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const clients = new Map<string, Promise<McpClient>>();
  const sender: Sender = {
    url: t.url,
    tokens: { owner: t.tenant.token, none: null, bad: `bok_01HZZZZZZZZZZZZZZZZZZZZZZZ_${'A'.repeat(43)}` },
    mcp: (token) => clients.get(token) ?? clients.set(token, mcpClient(t.url, token === 'owner' ? t.tenant.token : null)).get(token)!,
  };
  const count = await rowCounter((text) => t.sql(text));
  let baseline = await settled(count);
  const result: FuzzResult = { runs: 0, bySurface: new Map(), byStatus: new Map(), fiveXX: 0, failedCases: 0, classes: new Map(), summary: '' };
  let index = options.path ? Number(options.path.split(':')[0]) : 0;
  const started = Date.now();

  const property = fc.asyncProperty(caseArbitrary(pool), async (c) => {
    const path = index++;
    if (++result.runs % 1000 === 0) log(`fuzz: ${result.runs} cases, ${result.failedCases} failing, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    if (process.env.FUZZ_TRACE) log(`#${path} ${describeCase(c)}`); // the last line names a case that hangs
    const sent = Date.now();
    const answer = await send(sender, c.surface, c.token, c.request);
    const elapsed = Date.now() - sent;
    bump(result.bySurface, c.surface);
    bump(result.byStatus, answer.status);
    if (answer.status >= 500) result.fiveXX++;
    const problems = judge(c, answer);
    if (elapsed > SLOW_MS) problems.push(`slow (over ${SLOW_MS / 1000} s)`);
    // Every case is counted: a read must not write either. One statement, a few milliseconds.
    const after = await count();
    const changed = differences(baseline, after);
    if (changed.length) {
      problems.push(`state changed (${c.command ? 'command' : 'read'})`);
      answer.text = `${answer.text}\n    rows: ${changed.join(', ')}`;
      baseline = await settled(count); // let the relay deliver what was committed, then start over from there
    }
    if (!problems.length) return;
    result.failedCases++;
    for (const problem of problems) {
      const key = `${problem} · ${c.surface} · ${c.labels[c.labels.length - 1]}${c.token === 'owner' ? '' : ` · token ${c.token}`} → ${answer.status} ${answer.outcomes.join(',')}`;
      const entry = result.classes.get(key) ?? result.classes.set(key, { key, count: 0, ops: new Set(), example: { path, c, answer, problems } }).get(key)!;
      entry.count++;
      entry.ops.add(c.op);
    }
    if (options.failFast) throw new Error(`${problems.join('; ')}\n  ${describeCase(c)}\n  → ${answer.status} ${preview(answer.text, 600)}`);
  });

  try {
    await fc.assert(property, { numRuns: options.runs, seed: options.seed, path: options.path, endOnFailure: true });
  } finally {
    for (const client of clients.values()) await (await client).close().catch(() => undefined);
  }
  result.summary = summarize(result, options, Date.now() - started);
  log(result.summary);
  return result;
}

function summarize(r: FuzzResult, options: FuzzOptions, ms: number): string {
  const lines = [
    `fuzz: ${r.runs} cases in ${(ms / 1000).toFixed(1)} s (seed ${options.seed}${options.path ? `, path ${options.path}` : ''})`,
    `  requests: ${[...r.bySurface].map(([s, n]) => `${s} ${n}`).join(', ')}`,
    `  answers by status: ${[...r.byStatus]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
    `  5xx = ${r.fiveXX}`,
    `  failures: ${r.failedCases} cases in ${r.classes.size} classes`,
  ];
  for (const f of [...r.classes.values()].sort((a, b) => b.count - a.count)) {
    lines.push(
      `  ✗ ${f.key}  (×${f.count}; ${[...f.ops].slice(0, 6).join(', ')}${f.ops.size > 6 ? ', …' : ''})`,
      `      ${describeCase(f.example.c)}`,
      `      → ${f.example.answer.status} ${preview(f.example.answer.text, 400).replace(/\n/g, '\n      ')}`,
      `      replay: FUZZ_SEED=${options.seed} FUZZ_PATH=${f.example.path} FUZZ_RUNS=1 npx jest test/fuzz.test.ts`,
    );
  }
  return lines.join('\n');
}
