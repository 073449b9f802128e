import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { BackofficeClient, BackofficeError, OPERATIONS, queryOf } from '../sdk/src';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * The SDK as another project gets it: built (ES modules and CommonJS with declarations), packed,
 * unpacked into a scratch project's node_modules, imported from plain .mjs, .cjs and .ts files that
 * call the running system over HTTP. Its retries are tested against a real HTTP server that misbehaves.
 */
const ROOT = join(__dirname, '..');
let t: TestSystem;
let scratch: string;
/** A key of the test tenant with `audit.read` alone: refused `forbidden`, with the scope it lacks, elsewhere. */
let limited: string;

beforeAll(async () => {
  t = await startTestSystem();
  execFileSync(process.execPath, [join(ROOT, 'sdk', 'build.mjs')], { stdio: 'pipe' });
  scratch = mkdtempSync(join(tmpdir(), 'sdk-scratch-'));
  const packed = execFileSync('npm', ['pack', join(ROOT, 'sdk'), '--pack-destination', scratch, '--silent'], { cwd: scratch, encoding: 'utf8' })
    .trim()
    .split('\n')
    .pop()!;
  const target = join(scratch, 'node_modules', '@backoffice', 'sdk');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['-xzf', join(scratch, packed), '-C', target, '--strip-components=1']);
  writeFileSync(join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', private: true }));
  const key = await t.command('iam.api_key.create', { name: 'sdk-audit-only', scopes: ['audit.read'], never_expires: true });
  expect(key.status).toBe(200);
  limited = key.body.token;
}, 120_000);
afterAll(async () => {
  rmSync(scratch, { recursive: true, force: true });
  await t?.stop();
});

/**
 * Runs a file of the scratch project (with node, or a loader such as tsx given as `runner`); not
 * synchronously: the system it calls answers from this process.
 */
const run = async (file: string, source: string, runner: string[] = []) => {
  writeFileSync(join(scratch, file), source);
  const env = { ...process.env, URL: t.url, TOKEN: t.tenant.token, LIMITED: limited };
  const { stdout } = await promisify(execFile)(process.execPath, [...runner, join(scratch, file)], { cwd: scratch, env });
  return JSON.parse(stdout);
};

/** What CALLS prints, from any of the forms. */
function expectCalls({ who, refused, forbidden }: { who: unknown; refused: unknown; forbidden: unknown }) {
  expect(who).toMatchObject({ actor_id: t.tenant.api_key_id, tenant_id: t.tenant.tenant_id });
  expect(refused).toEqual({ isError: true, kind: 'validation_failed', status: 400, requestId: expect.stringMatching(/\S/) });
  // The error body's other fields are the error's details: here the scope the key lacks.
  expect(forbidden).toEqual({ isError: true, kind: 'forbidden', status: 403, details: { scope: 'catalog.product.write' } });
}

const CALLS = `
  const client = new BackofficeClient({ baseUrl: process.env.URL, token: process.env.TOKEN });
  const who = await client.call('read.internal.whoami', {});
  let refused;
  try {
    await client.call('catalog.product.create', { title: '' });
  } catch (error) {
    refused = { isError: error instanceof BackofficeError, kind: error.kind, status: error.status, requestId: error.requestId };
  }
  let forbidden;
  try {
    await new BackofficeClient({ baseUrl: process.env.URL, token: process.env.LIMITED }).call('catalog.product.create', { title: 'Mug', handle: 'mug' });
  } catch (error) {
    forbidden = { isError: error instanceof BackofficeError, kind: error.kind, status: error.status, details: error.details };
  }
  console.log(JSON.stringify({ who, refused, forbidden }));
`;

describe('the packed package in another project', () => {
  it('ships only the builds, with no dependency on the server', () => {
    const manifest = JSON.parse(readFileSync(join(scratch, 'node_modules', '@backoffice', 'sdk', 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    const files = execFileSync('find', ['.', '-type', 'f'], { cwd: join(scratch, 'node_modules', '@backoffice', 'sdk'), encoding: 'utf8' });
    expect(files).toMatch(/dist\/esm\/index\.js/);
    expect(files).toMatch(/dist\/cjs\/index\.js/);
    expect(files).toMatch(/dist\/types\/index\.d\.ts/);
    expect(files).not.toMatch(/\/src\//);
  });

  it.each([
    ['ES modules', 'esm.mjs', `import { BackofficeClient, BackofficeError } from '@backoffice/sdk';\n${CALLS}`],
    ['CommonJS', 'cjs.cjs', `const { BackofficeClient, BackofficeError } = require('@backoffice/sdk');\n(async () => {${CALLS}})();`],
  ])('is imported as %s and calls the running system; a refusal is a BackofficeError, with its details', async (_form, file, source) => {
    expectCalls(await run(file, source));
  });

  /** `tsc --noEmit` (strict, node16 modules) over the scratch project's typed.ts: 'ok', or its errors. */
  const compiles = () => {
    writeFileSync(
      join(scratch, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { strict: true, module: 'node16', moduleResolution: 'node16', target: 'ES2022', noEmit: true, lib: ['ES2022', 'DOM'], types: [] },
        files: ['typed.ts'],
      }),
    );
    try {
      execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', scratch], { encoding: 'utf8' });
      return 'ok';
    } catch (error) {
      return (error as { stdout: string }).stdout;
    }
  };

  it('types calls by operation name from a plain .ts file: a wrong field or result use does not compile', () => {
    const typed = (body: string) =>
      writeFileSync(
        join(scratch, 'typed.ts'),
        `import { BackofficeClient } from '@backoffice/sdk';\nconst client = new BackofficeClient({ baseUrl: 'http://127.0.0.1:1' });\nexport async function f() {\n${body}\n}\n`,
      );
    typed(`  const paid = await client.call('order.mark_paid', { order_id: 'ord_1' });\n  const status: string = paid.status;\n  return status;`);
    expect(compiles()).toBe('ok');
    typed(`  await client.call('order.mark_paid', { order: 'ord_1' });`);
    expect(compiles()).toMatch(/error TS/);
    typed(`  const page = await client.call('read.products', { store: 'demo' });\n  const n: string = page.total;\n  return n;`);
    expect(compiles()).toMatch(/error TS2322/);
  }, 60_000);

  it('runs a plain .ts file (CommonJS, as tsx loads it: the form that failed with ERR_REQUIRE_ASYNC_MODULE) against the running system', async () => {
    // Type-checked first (strict; no @types/node in the scratch project: process is declared), then run.
    const source = `import { BackofficeClient, BackofficeError } from '@backoffice/sdk';
declare const process: { env: Record<string, string | undefined> };

async function main(): Promise<void> {
  const client = new BackofficeClient({ baseUrl: process.env.URL!, token: process.env.TOKEN });
  const who = await client.call('read.internal.whoami', {});
  const refusal = async (call: () => Promise<unknown>) => {
    try {
      await call();
    } catch (error) {
      if (!(error instanceof BackofficeError)) throw error;
      return { isError: true, kind: error.kind, status: error.status, requestId: error.requestId, details: error.details };
    }
    throw new Error('not refused');
  };
  const { details: _, ...refused } = await refusal(() => client.call('catalog.product.create', { title: '', handle: 'x' }));
  const { requestId: __, ...forbidden } = await refusal(() =>
    new BackofficeClient({ baseUrl: process.env.URL!, token: process.env.LIMITED }).call('catalog.product.create', { title: 'Mug', handle: 'mug' }),
  );
  console.log(JSON.stringify({ who: { actor_id: who.actor_id, tenant_id: who.tenant_id }, refused, forbidden }));
}
main().catch((error) => {
  console.error(error);
  throw error;
});
`;
    writeFileSync(join(scratch, 'typed.ts'), source);
    expect(compiles()).toBe('ok');
    expectCalls(await run('typed.ts', source, [join(ROOT, 'node_modules', '.bin', 'tsx')]));
  }, 60_000);
});

describe('calls', () => {
  const client = () => new BackofficeClient({ baseUrl: t.url, token: t.tenant.token });

  it('send a read list comma-separated and a family as option.<name>=: a filter is never dropped', async () => {
    const route = OPERATIONS['read.products'];
    expect(
      queryOf(route, {
        store: 'demo',
        facets: ['price', 'options'],
        options: [
          { name: 'color', value: 'red' },
          { name: 'size', value: 'M' },
        ],
      }),
    ).toBe('store=demo&facets=price%2Coptions&option.color=red&option.size=M');
    const { product_id } = await client().call('catalog.product.create', { title: 'Plain Mug', handle: 'plain-mug-sdk', status: 'active' });
    await client().call('catalog.sku.create', { product_id, amount: 990, currency: 'EUR' });
    await client().call('catalog.product.publish', { product_id, store_id: t.tenant.store_id });
    const store = t.tenant.store_id;
    expect((await client().call('read.products', { store })).total).toBe(1);
    expect((await client().call('read.products', { store, options: [{ name: 'color', value: 'red' }] })).total).toBe(0);
  });

  it('answer an unknown operation name, or an unauthorized token, with a BackofficeError', async () => {
    await expect(client().call('no.such.thing' as never, {} as never)).rejects.toMatchObject({ kind: 'validation_failed' });
    const anonymous = new BackofficeClient({ baseUrl: t.url, token: 'bok_wrong' });
    const refused = await anonymous.call('read.internal.whoami', {}).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackofficeError);
    expect(refused).toMatchObject({ kind: 'unauthorized', status: 401 });
  });
});

describe('retries', () => {
  let server: Server;
  let url: string;
  /** What each request to the misbehaving server gets, in turn. */
  let script: Array<'429' | '429-long' | 'drop' | '503' | 'ok'>;
  let seen: Array<{ at: number; method: string }>;

  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push({ at: Date.now(), method: request.method! });
      const step = script.shift() ?? 'ok';
      if (step === 'drop') return request.socket.destroy();
      if (step === '429' || step === '429-long') {
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': step === '429' ? '1' : '3600' });
        return response.end(JSON.stringify({ error: { kind: 'rate_limited', message: 'slow down' } }));
      }
      if (step === '503')
        return response.writeHead(503, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { kind: 'internal', message: 'busy' } }));
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));
  beforeEach(() => {
    seen = [];
  });
  const quick = () => new BackofficeClient({ baseUrl: url, retryBaseMs: 10 });

  it('wait out a 429 for its Retry-After, for any command', async () => {
    script = ['429', 'ok'];
    expect(await quick().call('catalog.product.create', { title: 'x', handle: 'x' })).toEqual({ ok: true });
    expect(seen.length).toBe(2);
    expect(seen[1].at - seen[0].at).toBeGreaterThanOrEqual(950);
  });

  it('retry a read, and an idempotent command, after a dropped connection or a 503; never another command', async () => {
    script = ['drop', '503', 'ok'];
    expect(await quick().call('read.internal.whoami', {})).toEqual({ ok: true });
    script = ['drop', 'ok'];
    expect(await quick().call('order.mark_paid', { order_id: 'ord_1' })).toEqual({ ok: true });
    seen = [];
    script = ['drop', 'ok'];
    await expect(quick().call('order.create', { store_id: 's', items: [] } as never)).rejects.toMatchObject({ kind: 'unreachable', status: 0 });
    expect(seen.length).toBe(1);
  });

  it('give up on a Retry-After beyond a minute, and stop at once when the signal aborts', async () => {
    script = ['429-long'];
    await expect(quick().call('read.internal.whoami', {})).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
    script = ['429', 'ok'];
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user gave up')), 100);
    const started = Date.now();
    await expect(quick().call('read.internal.whoami', {}, { signal: controller.signal })).rejects.toThrow('user gave up');
    expect(Date.now() - started).toBeLessThan(900);
  });
});
