import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { Webhook } from 'standardwebhooks';
import { createTenant, identity, type CreatedTenant } from '@backoffice/identity';
import { subgraphDataSource } from '@backoffice/platform';
import { MemoryRateLimiter } from '../platform/src/rate-limit';
import { startSystem, type System } from '../gateway/src/system';
import { eventually, freshDatabase } from './helpers';

/**
 * Any router in front: the four subgraphs as separate processes (as docker-compose runs them), Hive
 * Gateway in front of the committed supergraph.graphql forwarding only `Authorization`, and this
 * project's gateway (GATEWAY_ONLY-style, signed context) in front of the same processes. Both must
 * give the same answers.
 */
/**
 * Hive Gateway, loaded without its types: they augment graphql's GraphQLErrorExtensions (graphql-yoga
 * declares `http.headers` a plain record), which would clash, program-wide, with Apollo Server's
 * Map of headers used by the gateway and the subgraphs. What this test uses of it:
 */
interface HiveGateway {
  createGatewayRuntime(config: Record<string, unknown>): ((req: IncomingMessage, res: ServerResponse) => void) & { dispose(): void | Promise<void> };
}
const { createGatewayRuntime } = require('@graphql-hive/gateway') as HiveGateway;

const ROOT = join(__dirname, '..');
const SUBGRAPH_NAMES = ['identity', 'catalog', 'orders', 'content'] as const;

let database: { url: string; drop(): Promise<void> };
const processes: ChildProcess[] = [];
const output: string[] = [];
const ports: Record<string, number> = {};
let hive: { server: Server; url: string; dispose(): Promise<void> };
let receiver: Server;
/** Content's mail, in its own process: a real SMTP server run here. */
let smtp: SMTPServer;
const mails: ParsedMail[] = [];
const hooks: Array<{ headers: Record<string, string>; body: string }> = [];
let ours: System;
/** This gateway again, without its /graphql lane: every request on Apollo's path. */
let oursPlain: System;
let tenant: CreatedTenant;
const savedEnv: Record<string, string | undefined> = {};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createNetServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function startSubgraph(name: string, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', `subgraphs/${name}/src/main.ts`], {
    cwd: ROOT,
    env: { ...process.env, ...env, NODE_ENV: 'test', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => output.push(`[${name}] ${chunk.toString().trimEnd()}`);
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  processes.push(child);
  return child;
}

async function ready(name: string, child: ChildProcess): Promise<void> {
  await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}):\n${output.join('\n')}`);
    const ok = await fetch(`http://127.0.0.1:${ports[name]}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    return ok ? true : undefined;
  }, 30_000);
}

beforeAll(async () => {
  database = await freshDatabase();
  const secret = randomBytes(32).toString('base64url');
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData: (stream, _session, callback) =>
      void simpleParser(stream).then((mail) => {
        mails.push(mail);
        callback();
      }, callback),
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  for (const name of SUBGRAPH_NAMES) ports[name] = await freePort();
  const identityUrl = `http://127.0.0.1:${ports.identity}`;
  const env = (name: string): Record<string, string> => ({
    DATABASE_URL: database.url,
    CONTEXT_SECRET: secret,
    HOST: '127.0.0.1',
    IDENTITY_URL: identityUrl,
    // Orders asks the catalog for SKUs at checkout (its /internal/skus), as docker-compose.yml says.
    CATALOG_URL: `http://127.0.0.1:${ports.catalog}`,
    // Hive Gateway below puts the client's address in x-forwarded-for.
    TRUST_PROXY: '1',
    // Buckets that do not refill during the test: a charge shows as exactly one less remaining.
    RATE_LIMIT_PER_SECOND: '0.001',
    RATE_LIMIT_BURST: '1000000',
    // Webhooks to this test's receiver on 127.0.0.1; every process shares the sealing key.
    WEBHOOK_ALLOW_INSECURE: '1',
    WEBHOOK_ALLOW_PRIVATE: '1',
    WEBHOOK_SECRET_KEY: secret,
    SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    MAIL_FROM: 'mailer@router.test',
    [`${name.toUpperCase()}_PORT`]: String(ports[name]),
  });
  // Identity first (the others ask it who a token is), then the rest together.
  const first = startSubgraph('identity', env('identity'));
  await ready('identity', first);
  const rest = SUBGRAPH_NAMES.slice(1).map((name) => [name, startSubgraph(name, env(name))] as const);
  await Promise.all(rest.map(([name, child]) => ready(name, child)));

  // The owner key of a tenant, made as `backoffice tenant create` makes it.
  const identityDb = await subgraphDataSource(database.url, identity).initialize();
  try {
    tenant = await createTenant(identityDb, { name: 'Router shop', store: 'router-shop', never_expires: true });
  } finally {
    await identityDb.destroy();
  }

  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      hooks.push({ headers: req.headers as Record<string, string>, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));

  // Where the subgraphs are (<NAME>_URL): for this project's gateway (GATEWAY_ONLY=1) and Hive's transportEntries.
  for (const name of SUBGRAPH_NAMES) {
    savedEnv[`${name.toUpperCase()}_URL`] = process.env[`${name.toUpperCase()}_URL`];
    process.env[`${name.toUpperCase()}_URL`] = `http://127.0.0.1:${ports[name]}`;
  }
  // Hive Gateway: the committed gateway.config.ts docs/routers.md shows, over the committed supergraph unchanged.
  const { gatewayConfig } = require('../gateway.config') as { gatewayConfig: Record<string, unknown> };
  const runtime = createGatewayRuntime({ ...gatewayConfig, supergraph: readFileSync(join(ROOT, 'supergraph.graphql'), 'utf8'), logging: false });
  const server = createServer(runtime);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  hive = { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`, dispose: async () => void (await runtime.dispose()) };

  // This project's gateway fronting the same processes.
  ours = await startSystem({
    remoteSubgraphs: true,
    port: 0,
    contextSecret: secret,
    limiter: new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 }),
    log: (line) => output.push(`[gateway] ${line}`),
  });
  oursPlain = await startSystem({
    remoteSubgraphs: true,
    port: 0,
    contextSecret: secret,
    limiter: new MemoryRateLimiter({ ratePerSecond: 1e6, burst: 1e6 }),
    log: (line) => output.push(`[gateway, no lane] ${line}`),
    graphqlLane: false,
  });
}, 90_000);

afterAll(async () => {
  await ours?.stop();
  await oursPlain?.stop();
  if (smtp) await new Promise<void>((resolve) => smtp.close(() => resolve()));
  if (receiver) await new Promise((resolve) => receiver.close(resolve));
  if (hive) {
    await hive.dispose();
    await new Promise((resolve) => hive.server.close(resolve));
  }
  await Promise.all(
    processes.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
          child.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  for (const [key, value] of Object.entries(savedEnv)) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
  await database?.drop();
}, 30_000);

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

async function post(url: string, query: string, variables: Record<string, unknown>, token: string | null): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** The same request through Hive Gateway and through this gateway. */
async function both(query: string, variables: Record<string, unknown> = {}, token: string | null = tenant.token) {
  const [viaHive, viaOurs] = await Promise.all([post(hive.url, query, variables, token), post(`${ours.url}/graphql`, query, variables, token)]);
  return { viaHive, viaOurs };
}

/** What a client reads in a GraphQL error: its message, kind and named details (a router may add its own fields). */
const errorsOf = (answer: Answer) =>
  (answer.body.errors ?? []).map((e: any) => {
    const { code, scope } = e.extensions ?? {};
    return { message: e.message, code, ...(scope ? { scope } : {}) };
  });

const WHOAMI = '{ read_internal_whoami { actor_id name tenant_id credential_id scopes } }';

describe('Hive Gateway in front of the committed supergraph', () => {
  it('answers whoami as this gateway does', async () => {
    const { viaHive, viaOurs } = await both(WHOAMI);
    expect(viaOurs.status).toBe(200);
    expect(viaOurs.body.data.read_internal_whoami.actor_id).toBe(tenant.api_key_id);
    expect(viaHive.status).toBe(200);
    expect(viaHive.body).toEqual(viaOurs.body);
    // The subgraph charged the key's bucket; Hive Gateway passed its RateLimit header on.
    expect(viaHive.headers.get('ratelimit')).toMatch(/^limit=\d+, remaining=\d+, reset=\d+$/);
  });

  it('answers read.products (public, no credential) as this gateway does', async () => {
    const command = (name: string, input: unknown) =>
      fetch(`${ours.url}/v1/commands/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.token}` },
        body: JSON.stringify(input),
      }).then((r) => r.json() as Promise<any>);
    const { product_id } = await command('catalog.product.create', { title: 'Routed Tee', handle: 'routed-tee', status: 'active' });
    expect(product_id).toMatch(/^prd_/);
    await command('catalog.sku.create', { product_id, amount: 1999, currency: 'EUR' });
    expect((await command('catalog.product.publish', { product_id, store_id: tenant.store_id })).published).toBe(true);
    const query =
      'query($store: String!) { read_products(input: { store: $store, facets: [price] }) { total items { product_id ' +
      'title handle skus { amount currency } price_min } facets { price { min max buckets { from to count } } } } }';
    const { viaHive, viaOurs } = await both(query, { store: 'router-shop' }, null);
    expect(viaOurs.status).toBe(200);
    expect(viaOurs.body.data.read_products).toMatchObject({
      total: 1,
      items: [{ product_id, title: 'Routed Tee', skus: [{ amount: 1999, currency: 'EUR' }] }],
    });
    expect(viaHive.status).toBe(200);
    expect(viaHive.body).toEqual(viaOurs.body);
  });

  it('runs a command for the key, and audits it under the key name', async () => {
    const mutation = 'mutation($i: CatalogBrandCreateInput!) { catalog_brand_create(input: $i) { brand_id } }';
    const viaHive = await post(hive.url, mutation, { i: { name: 'Brand via Hive' } }, tenant.token);
    const viaOurs = await post(`${ours.url}/graphql`, mutation, { i: { name: 'Brand via gateway' } }, tenant.token);
    expect(viaOurs.status).toBe(200);
    expect(viaHive.status).toBe(200);
    expect(viaOurs.body).toEqual({ data: { catalog_brand_create: { brand_id: expect.stringMatching(/^brd_/) } } });
    expect(viaHive.body).toEqual({ data: { catalog_brand_create: { brand_id: expect.stringMatching(/^brd_/) } } });
    expect(viaHive.body.data.catalog_brand_create.brand_id).not.toBe(viaOurs.body.data.catalog_brand_create.brand_id);
    // Both calls are in the catalog's trail, under the key's name.
    const audit = await eventually(async () => {
      const { viaOurs: read } = await both('{ catalog_audit(input: { operation: "catalog.brand.create" }) { total items { actor_id actor_name outcome } } }');
      return read.body.data?.catalog_audit.total === 2 ? read.body.data.catalog_audit : undefined;
    });
    expect(audit.items).toEqual([
      { actor_id: tenant.api_key_id, actor_name: 'owner', outcome: 'ok' },
      { actor_id: tenant.api_key_id, actor_name: 'owner', outcome: 'ok' },
    ]);
  });

  it('delivers a webhook across processes: catalog’s event, identity’s consumer and task, signed', async () => {
    const hookUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
    const subscribed = await post(
      hive.url,
      'mutation($i: WebhookSubscriptionCreateInput!) { webhook_subscription_create(input: $i) { subscription_id secret } }',
      { i: { url: hookUrl, event_types: ['catalog.brand.created'] } },
      tenant.token,
    );
    expect(subscribed.status).toBe(200);
    const { secret } = subscribed.body.data.webhook_subscription_create;
    const made = await post(hive.url, 'mutation { catalog_brand_create(input: { name: "Hooked brand" }) { brand_id } }', {}, tenant.token);
    const brandId = made.body.data.catalog_brand_create.brand_id;
    const hook = await eventually(async () => hooks.find((h) => JSON.parse(h.body).payload.brand_id === brandId), 15_000);
    const event = new Webhook(secret).verify(hook.body, hook.headers) as { type: string; tenant_id: string };
    expect(event).toMatchObject({ type: 'catalog.brand.created', tenant_id: tenant.tenant_id });
  });

  it('refuses a key without the scope (forbidden) as this gateway does', async () => {
    const created = await post(
      `${ours.url}/graphql`,
      'mutation { iam_api_key_create(input: { name: "reader", scopes: ["audit.read"] }) { token } }',
      {},
      tenant.token,
    );
    const weak = created.body.data.iam_api_key_create.token as string;
    const { viaHive, viaOurs } = await both('mutation { catalog_brand_create(input: { name: "Not allowed" }) { brand_id } }', {}, weak);
    expect(viaOurs.status).toBe(200);
    expect(viaOurs.body.data).toEqual({ catalog_brand_create: null });
    expect(errorsOf(viaOurs)).toEqual([{ message: 'missing scope catalog.product.write', code: 'forbidden', scope: 'catalog.product.write' }]);
    expect(viaHive.status).toBe(200);
    expect(viaHive.body.data).toEqual(viaOurs.body.data);
    expect(errorsOf(viaHive)).toEqual(errorsOf(viaOurs));
  });

  it('refuses a bad token (unauthorized) as this gateway does', async () => {
    const bad = `${tenant.token.slice(0, -4)}AAAA`;
    const { viaHive, viaOurs } = await both(WHOAMI, {}, bad);
    expect(viaOurs.status).toBe(401);
    expect(errorsOf(viaOurs)).toEqual([{ message: 'the API key is unknown, expired or revoked', code: 'unauthorized' }]);
    // The same error; Hive Gateway makes the subgraph's 401 a field error (HTTP 200, the field null).
    expect(errorsOf(viaHive)).toEqual(errorsOf(viaOurs));
    expect(viaHive.body.data).toEqual({ read_internal_whoami: null });
  });

  it('refuses a revoked key at once, in identity and in the subgraphs that ask identity', async () => {
    const created = await post(
      `${ours.url}/graphql`,
      'mutation { iam_api_key_create(input: { name: "short-lived", scopes: ["catalog.admin.read"] }) { api_key_id token } }',
      {},
      tenant.token,
    );
    const { api_key_id, token } = created.body.data.iam_api_key_create;
    const query = '{ read_internal_whoami { actor_id } catalog_products(input: { limit: 1 }) { total } }';
    const before = await post(hive.url, query, {}, token);
    expect(before.body).toEqual({ data: { read_internal_whoami: { actor_id: api_key_id }, catalog_products: { total: 1 } } });
    // Revoked through identity's process (the command's own process forgets at once; no subgraph remembers tokens).
    const revoked = await post(
      hive.url,
      'mutation($i: IamApiKeyRevokeInput!) { iam_api_key_revoke(input: $i) { revoked } }',
      { i: { api_key_id } },
      tenant.token,
    );
    expect(revoked.body).toEqual({ data: { iam_api_key_revoke: { revoked: true } } });
    const after = await post(hive.url, query, {}, token);
    expect(after.body.data).toEqual({ read_internal_whoami: null, catalog_products: null });
    expect(errorsOf(after).map((e: { code: string }) => e.code)).toEqual(['unauthorized', 'unauthorized']);
  });

  it('answers a query across subgraphs (identity and catalog) as this gateway does', async () => {
    const query = `{
      read_internal_whoami { actor_id tenant_id }
      catalog_products(input: { limit: 5 }) { total items { product_id title status } }
      identity_audit(input: { limit: 1 }) { limit }
    }`;
    const { viaHive, viaOurs } = await both(query);
    expect(viaOurs.status).toBe(200);
    expect(viaOurs.body.data.catalog_products.items).toEqual([{ product_id: expect.stringMatching(/^prd_/), title: 'Routed Tee', status: 'active' }]);
    expect(viaHive.status).toBe(200);
    expect(viaHive.body).toEqual(viaOurs.body);
  });

  it("resolves a Product entity for the key, as a router's entity fetch would", async () => {
    // No other subgraph references Product yet, so no supergraph query makes this hop: this is the
    // fetch a router sends the catalog once one does, with the forwarded bearer.
    const { viaOurs } = await both('{ catalog_products(input: { limit: 1 }) { items { product_id title handle } } }');
    const product = viaOurs.body.data.catalog_products.items[0];
    const entities = await post(
      `http://127.0.0.1:${ports.catalog}/graphql`,
      'query($r: [_Any!]!) { _entities(representations: $r) { ... on Product { product_id title handle } } }',
      { r: [{ __typename: 'Product', product_id: product.product_id }] },
      tenant.token,
    );
    expect(entities.body).toEqual({ data: { _entities: [product] } });
  });

  it('takes an order in the orders process, which asks catalog and identity over HTTP, and answers it with its SKUs', async () => {
    // A shop of its own, so the other tests' catalog stays as they expect it.
    const identityDb = await subgraphDataSource(database.url, identity).initialize();
    let shop: CreatedTenant;
    try {
      shop = await createTenant(identityDb, { name: 'Orders shop', store: 'router-orders-shop', never_expires: true });
    } finally {
      await identityDb.destroy();
    }
    const command = async (name: string, input: unknown) => {
      const response = await fetch(`${ours.url}/v1/commands/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${shop.token}` },
        body: JSON.stringify(input),
      });
      return { status: response.status, body: (await response.json()) as any };
    };
    const ok = async (name: string, input: unknown) => {
      const answer = await command(name, input);
      if (answer.status !== 200) throw new Error(`${name}: ${answer.status} ${JSON.stringify(answer.body)}\n${output.join('\n')}`);
      return answer.body;
    };
    const { product_id } = await ok('catalog.product.create', { title: 'Routed Mug', handle: 'routed-mug', status: 'active' });
    const { sku_id } = await ok('catalog.sku.create', { product_id, code: 'R-MUG', amount: 1500, currency: 'EUR' });
    await ok('inventory.adjust', { sku_id, on_hand: 5 });
    const order = { store_id: shop.store_id, customer: { email: 'routed@example.com' }, items: [{ sku_id, qty: 2 }] };
    // Not yet published to the store: the catalog's answer (over HTTP) says so, and orders refuses.
    const unpublished = await command('order.create', order);
    expect(unpublished).toEqual({ status: 409, body: { error: { kind: 'conflict', message: `sku ${sku_id} is not published to store ${shop.store_id}` } } });
    await ok('catalog.product.publish', { product_id, store_id: shop.store_id });

    // Through this gateway (signed context) and through Hive Gateway (the bearer forwarded).
    const viaOurs = await command('order.create', order);
    expect(viaOurs).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'pending_payment', currency: 'EUR', subtotal_amount: 3000, total_amount: 3000 }),
    });
    const mutation = 'mutation($i: OrderCreateInput!) { order_create(input: $i) { order_id status total_amount } }';
    const viaHive = await post(hive.url, mutation, { i: { ...order, items: [{ sku_id, qty: 1 }] } }, shop.token);
    expect(viaHive.body).toEqual({ data: { order_create: { order_id: expect.stringMatching(/^ord_/), status: 'pending_payment', total_amount: 1500 } } });
    // The stock is held for both; a store of another tenant is refused (identity's answer, over HTTP).
    const stock = await post(
      hive.url,
      'query($s: ID!) { read_internal_inventory(input: { sku_id: $s }) { items { on_hand reserved available } } }',
      { s: sku_id },
      shop.token,
    );
    expect(stock.body).toEqual({ data: { read_internal_inventory: { items: [{ on_hand: 5, reserved: 3, available: 2 }] } } });
    expect((await command('order.create', { ...order, store_id: tenant.store_id })).status).toBe(409);

    // One query, two processes: the order's snapshot from orders, its SKU as the catalog has it now.
    await ok('catalog.sku.set_promotion', { sku_id, promotional_amount: 1200 });
    // Three processes: its store as identity has it (the Store entity).
    const read =
      `query($id: ID!) { read_internal_order(input: { order_id: $id }) { order_id store { store_id handle name } ` +
      `items { sku_id title unit_amount sku { sku_id code amount promotional_price { promotional_amount } } } } }`;
    const both = await Promise.all([
      post(hive.url, read, { id: viaOurs.body.order_id }, shop.token),
      post(`${ours.url}/graphql`, read, { id: viaOurs.body.order_id }, shop.token),
    ]);
    for (const answer of both) {
      expect(answer.body).toEqual({
        data: {
          read_internal_order: {
            order_id: viaOurs.body.order_id,
            store: { store_id: shop.store_id, handle: 'router-orders-shop', name: 'Orders shop' },
            items: [
              { sku_id, title: 'Routed Mug', unit_amount: 1500, sku: { sku_id, code: 'R-MUG', amount: 1500, promotional_price: { promotional_amount: 1200 } } },
            ],
          },
        },
      });
    }
  });

  it("routes read.products by host in the catalog process, whose directory forgets a changed or cleared host as soon as identity's notification arrives", async () => {
    const command = (input: Record<string, unknown>) =>
      fetch(`${ours.url}/v1/commands/tenant.store.update`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.token}` },
        body: JSON.stringify({ id: tenant.store_id, ...input }),
      }).then((r) => r.status);
    const rest = (store: string) => fetch(`${ours.url}/v1/read/products?store=${encodeURIComponent(store)}`).then((r) => r.status);
    const hiveStatus = async (store: string) => {
      const answer = await post(hive.url, 'query($s: String!) { read_products(input: { store: $s }) { total } }', { s: store }, null);
      return answer.body.data?.read_products ? 200 : answer.body.errors?.[0]?.extensions?.code;
    };
    const host = 'router-shop.example.com';
    const moved = 'www.router-shop.example.com';
    expect(await command({ host: 'Router-Shop.Example.com:443' })).toBe(200);
    // Warm: the catalog process remembers the host (its directory listens on the shared database).
    await eventually(async () => ((await rest(host)) === 200 ? true : undefined), 2000);
    for (let i = 0; i < 3; i++) expect([await rest(host), await hiveStatus(host)]).toEqual([200, 200]);
    expect(await rest(moved)).toBe(404);

    expect(await command({ host: moved })).toBe(200);
    await eventually(async () => ((await rest(host)) === 404 && (await rest(moved)) === 200 ? true : undefined), 1000);
    expect(await hiveStatus(host)).toBe('not_found');
    expect(await hiveStatus(moved)).toBe(200);
    const resolved = await fetch(`${ours.url}/v1/read/stores/resolve?host=${moved}`).then((r) => r.json() as Promise<any>);
    expect(resolved).toEqual({ store_id: tenant.store_id, handle: 'router-shop', theme_key: null });

    expect(await command({ host: '' })).toBe(200);
    expect(await fetch(`${ours.url}/v1/read/stores/resolve?host=${moved}`).then((r) => r.status)).toBe(404);
    await eventually(async () => ((await rest(moved)) === 404 ? true : undefined), 1000);
    expect(await hiveStatus(moved)).toBe('not_found');
    expect(await rest('router-shop')).toBe(200);
  });
  it('passes on every one of 20 identical calls made at once (no in-flight merging): 20 audit rows, 20 charges', async () => {
    const created = await post(
      `${ours.url}/graphql`,
      'mutation { iam_api_key_create(input: { name: "concurrent", scopes: [] }) { api_key_id token } }',
      {},
      tenant.token,
    );
    const { api_key_id, token } = created.body.data.iam_api_key_create;
    const remaining = (answer: Answer) => Number(/remaining=(\d+)/.exec(answer.headers.get('ratelimit') ?? '')?.[1]);
    const first = await post(hive.url, WHOAMI, {}, token);
    const calls = await Promise.all(Array.from({ length: 20 }, () => post(hive.url, WHOAMI, {}, token)));
    expect(calls.map((c) => c.body.data?.read_internal_whoami?.actor_id)).toEqual(Array(20).fill(api_key_id));
    const last = await post(hive.url, WHOAMI, {}, token);
    // Identity's bucket paid for each: the 20 and the last (its buckets do not refill in this test).
    expect(remaining(first) - remaining(last)).toBe(21);
    const rows = () =>
      post(
        `${ours.url}/graphql`,
        'query($a: String!) { identity_audit(input: { actor: $a, operation: "read.internal.whoami", limit: 100 }) { items { request_id } } }',
        { a: api_key_id },
        tenant.token,
      );
    const audited = await eventually(async () => {
      const items = (await rows()).body.data?.identity_audit.items ?? [];
      return items.length >= 22 ? items : undefined;
    }, 15_000);
    expect(audited).toHaveLength(22);
  });

  it('passes one RateLimit value to the client, the lowest remaining of the subgraphs it asked', async () => {
    const created = await post(
      `${ours.url}/graphql`,
      'mutation { iam_api_key_create(input: { name: "two-buckets", scopes: ["catalog.admin.read"] }) { token } }',
      {},
      tenant.token,
    );
    const { token } = created.body.data.iam_api_key_create;
    // Spend from the catalog's bucket alone, so it is lower than identity's.
    let catalogOnly: Answer | undefined;
    for (let i = 0; i < 3; i++) catalogOnly = await post(hive.url, '{ catalog_products(input: { limit: 1 }) { total } }', {}, token);
    const catalogLeft = Number(/remaining=(\d+)/.exec(catalogOnly!.headers.get('ratelimit')!)![1]);
    const across = await post(hive.url, '{ read_internal_whoami { actor_id } catalog_products(input: { limit: 1 }) { total } }', {}, token);
    expect(across.body.errors).toBeUndefined();
    const header = across.headers.get('ratelimit');
    expect(header).toMatch(/^limit=1000000, remaining=\d+, reset=\d+$/);
    expect(Number(/remaining=(\d+)/.exec(header!)![1])).toBe(catalogLeft - 1);
  });

  it("mails from the content process: the store's sender name asked of identity, and a login code opened there", async () => {
    const command = (name: string, input: unknown, token: string | null = tenant.token) =>
      fetch(`${ours.url}/v1/commands/${name}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(input),
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    expect((await command('tenant.store.update', { id: tenant.store_id, notification_sender_name: 'Router Team' })).status).toBe(200);
    expect((await command('admin_user.invite', { email: 'ops@router.test', name: 'Ops', role: 'staff', locale: 'en' })).status).toBe(200);
    expect((await command('auth.login_code.request', { store: 'router-shop', email: 'ops@router.test' }, null)).status).toBe(200);
    const codeMail = await eventually(
      async () => mails.find((m) => /\d{6}$/.test(m.subject ?? '') && m.to && JSON.stringify(m.to).includes('ops@router.test')),
      20_000,
    );
    expect(codeMail.from?.value[0]).toEqual({ address: 'mailer@router.test', name: 'Router Team' });
    const code = /(\d{6})$/.exec(codeMail.subject!)![1];
    const session = await command('auth.login_code.verify', { store: 'router-shop', email: 'ops@router.test', code }, null);
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ activated: true });
  });
});

describe('the admin’s queries of docs/admin-graphql.md', () => {
  /** The section's queries, by operation name, read from the document itself: what it shows is what runs. */
  const section = readFileSync(join(ROOT, 'docs', 'admin-graphql.md'), 'utf8')
    .split("## The admin's queries")[1]
    .split('\n## ')[0];
  const documented = new Map([...section.matchAll(/```graphql\n(query (\w+)[\s\S]*?)```/g)].map((m) => [m[2], m[1]] as const));
  const ok = async (name: string, input: unknown) => {
    const res = await fetch(`${ours.url}/v1/commands/${name}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tenant.token}` },
      body: JSON.stringify(input),
    });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`${name}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  /** A documented query through both routers: the same answer, without errors. */
  const run = async (name: string, variables: Record<string, unknown> = {}) => {
    const query = documented.get(name);
    if (!query) throw new Error(`docs/admin-graphql.md shows no query ${name}`);
    const { viaHive, viaOurs } = await both(query, variables);
    expect([viaOurs.status, viaOurs.body.errors]).toEqual([200, undefined]);
    expect(viaHive.body).toEqual(viaOurs.body);
    return viaOurs.body.data;
  };
  let productId: string;
  let orderId: string;

  beforeAll(async () => {
    productId = (await ok('catalog.product.create', { title: 'Admin Mug', handle: 'admin-mug', status: 'active' })).product_id;
    const { sku_id } = await ok('catalog.sku.create', { product_id: productId, code: 'ADM-MUG', amount: 1500, currency: 'EUR', weight_grams: 400 });
    await ok('catalog.product.publish', { product_id: productId, store_id: tenant.store_id });
    await ok('inventory.adjust', { sku_id, on_hand: 10 });
    await ok('shipping.method.create', { name: 'Courier', dimensional_divisor: 5000, rates: { currency: 'EUR', flat_amount: 490 } });
    const order = await ok('order.create', { store_id: tenant.store_id, customer: { email: 'buyer@example.com' }, items: [{ sku_id, qty: 2 }] });
    orderId = order.order_id;
    await ok('order.mark_paid', { order_id: orderId });
    await ok('order.shipment.dispatch', { order_id: orderId, shipment_id: order.shipment_id });
  });

  it('shows four queries, each run here', () => {
    expect([...documented.keys()]).toEqual(['ProductPage', 'OrderPage', 'OrdersList', 'SettingsPage']);
  });

  it('a product page shows its SKUs with their shipping attributes and their stock per warehouse', async () => {
    const { catalog_product: product } = await run('ProductPage', { id: productId });
    expect(product).toMatchObject({ id: productId, title: 'Admin Mug', stores: [{ store: { handle: 'router-shop' } }] });
    expect(product.skus).toEqual([expect.objectContaining({ code: 'ADM-MUG', weight_grams: 400 })]);
    // 10 put in, 2 of them sold to the order below (held or shipped, as the order stands when this runs).
    const [level] = product.skus[0].stock_levels;
    expect(product.skus[0].stock_levels).toHaveLength(1);
    expect(level.warehouse).toEqual({ code: expect.any(String), name: expect.any(String) });
    expect([level.available, level.on_hand - level.reserved, level.available + level.reserved + (10 - level.on_hand)]).toEqual([8, 8, 10]);
  });

  it('an order page shows the product’s title, the parcel and how far it has gone', async () => {
    const { read_internal_order: order } = await run('OrderPage', { id: orderId });
    expect(order).toMatchObject({ id: orderId, status: 'paid', fulfilment_status: 'dispatched', subtotal_amount: 3000, store: { handle: 'router-shop' } });
    expect(order.items).toEqual([{ code: 'ADM-MUG', qty: 2, line_amount: 3000, sku: { code: 'ADM-MUG', product: { title: 'Admin Mug' } } }]);
    expect(order.shipments).toEqual([{ status: 'dispatched', tracking_code: null, items: [{ qty: 2 }] }]);
  });

  it('the orders list pages by cursor and filters by a typed status and fulfilment', async () => {
    const { orders } = await run('OrdersList', { status: 'paid' });
    expect(orders.edges.map((e: any) => e.node.id)).toContain(orderId);
    expect(orders.pageInfo.hasNextPage).toBe(false);
    const next = await run('OrdersList', { status: 'paid', after: orders.pageInfo.endCursor });
    expect(next.orders.edges).toEqual([]);
    expect((await run('OrdersList', { status: 'cancelled' })).orders.totalCount).toBe(0);
    // Its one parcel dispatched (above), not delivered: dispatched, never unfulfilled.
    const dispatched = await run('OrdersList', { status: 'paid', fulfilment: 'dispatched' });
    expect(dispatched.orders.edges.map((e: any) => [e.node.id, e.node.fulfilment_status])).toContainEqual([orderId, 'dispatched']);
    expect((await run('OrdersList', { fulfilment: 'unfulfilled' })).orders.edges.map((e: any) => e.node.id)).not.toContain(orderId);
  });

  it('a settings page reads every setting in one request, never a secret', async () => {
    const settings = await run('SettingsPage');
    expect(settings.stores.edges.map((e: any) => e.node.handle)).toContain('router-shop');
    expect(settings.api_keys.edges).toEqual(expect.arrayContaining([expect.objectContaining({ node: expect.objectContaining({ is_owner: true }) })]));
    expect(settings.shipping_methods.edges.map((e: any) => e.node)).toEqual([
      expect.objectContaining({ name: 'Courier', rates: { currency: 'EUR', flat_amount: 490, bands: null } }),
    ]);
    expect(settings.notification_channels.edges.map((e: any) => e.node.channel_key)).toContain('email');
    expect(JSON.stringify(settings)).not.toContain(tenant.token);
  });
});

describe("this gateway's /graphql lane in front of subgraphs in other processes", () => {
  const laneCount = async () =>
    Number(/^backoffice_graphql_path_total\{path="lane"\} (\d+)/m.exec(await (await fetch(`${ours.url}/metrics`)).text())?.[1] ?? 0);
  /** The same request through this gateway with and without its lane: the same status and bytes; whether the lane served it. */
  async function laneAndPlain(query: string, variables: Record<string, unknown>, token: string | null) {
    const send = async (base: string) => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify({ query, variables }),
      });
      return { status: response.status, text: await response.text() };
    };
    const before = await laneCount();
    const viaLane = await send(ours.url);
    const served = (await laneCount()) > before;
    expect(viaLane).toEqual(await send(oursPlain.url));
    return { ...viaLane, served };
  }

  it('passes a subgraph answer on as it is, and words its field errors as the gateway does', async () => {
    expect(await laneAndPlain(WHOAMI, {}, tenant.token)).toMatchObject({ status: 200, served: true });
    const products = 'query($s: String!) { read_products(input: { store: $s, limit: 2 }) { items { product_id title } total } }';
    expect(await laneAndPlain(products, { s: 'router-shop' }, null)).toMatchObject({ status: 200, served: true });
    const missing = await laneAndPlain('{ read_internal_order(input: { order_id: "ord_nope" }) { id } }', {}, tenant.token);
    expect(missing).toMatchObject({ status: 200, served: true });
    expect(JSON.parse(missing.text).errors[0].extensions.code).toBe('not_found');
    // Two subgraphs: the gateway's path.
    expect(
      await laneAndPlain(`{ read_internal_whoami { name } read_products(input: { store: "router-shop", limit: 1 }) { total } }`, {}, tenant.token),
    ).toMatchObject({
      status: 200,
      served: false,
    });
  });
});
