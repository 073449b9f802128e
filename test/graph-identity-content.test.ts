import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Pool, PoolClient } from 'pg';
import type { DataSource } from 'typeorm';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * The admin graph of identity and content through the gateway: the settings page in one request,
 * no secret in it, links batched (one statement per link whatever the number of stores), the
 * connections by cursor, commands' results naming what they changed, and tenants apart.
 */
let t: TestSystem;
let receiver: Server;
let hookUrl: string;
const secrets: string[] = [];
const stores: string[] = [];
let botKey: { api_key_id: string; token: string };
let subscriptionId: string;

const ENV = { WEBHOOK_ALLOW_INSECURE: '1', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_SECRET_KEY: 'test-key-test-key-test-key-test-key-0001' };

/**
 * Every statement a subgraph's pool runs while `run` is under way: each client the pool hands out
 * has its `query` wrapped (TypeORM, the loaders' `sqlOf(dataSource)` and raw pool users alike).
 */
async function statementsDuring<T>(dataSource: DataSource, run: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
  const pool = (dataSource.driver as unknown as { master: Pool }).master;
  const statements: string[] = [];
  const wrapped = new WeakSet<PoolClient>();
  const wrap = (client: PoolClient) => {
    if (wrapped.has(client)) return client;
    wrapped.add(client);
    const query = client.query;
    (client as { query: unknown }).query = function (this: PoolClient, ...args: unknown[]) {
      const first = args[0] as { text?: string } | string;
      statements.push(typeof first === 'string' ? first : (first?.text ?? ''));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    };
    return client;
  };
  const connect = pool.connect;
  pool.connect = function (this: Pool, callback?: (error: Error | undefined, client: PoolClient | undefined, done: unknown) => void) {
    if (typeof callback === 'function') return connect.call(this, (error, client, done) => callback(error, client && wrap(client), done));
    return (connect as () => Promise<PoolClient>).call(this).then(wrap);
  } as Pool['connect'];
  // Clients already idle in the pool are handed out again without `connect` wrapping them: wrap those too.
  for (const client of (pool as unknown as { _clients: PoolClient[] })._clients) wrap(client);
  try {
    return { result: await run(), statements };
  } finally {
    pool.connect = connect;
    for (const client of (pool as unknown as { _clients: PoolClient[] })._clients) delete (client as { query?: unknown }).query;
  }
}

const gql = async (query: string, variables: Record<string, unknown> = {}, token?: string) => {
  const res = await t.graphql(query, variables, token);
  expect([res.status, res.status === 200 ? null : res.body]).toEqual([200, null]);
  return res.body as { data: any; errors?: { message: string; path?: string[]; extensions: { code: string } }[] };
};

beforeAll(async () => {
  receiver = createServer((_req, res) => res.writeHead(200).end());
  await new Promise<void>((ok) => receiver.listen(0, '127.0.0.1', ok));
  hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const saved = Object.fromEntries(Object.keys(ENV).map((k) => [k, process.env[k]]));
  Object.assign(process.env, ENV);
  try {
    t = await startTestSystem();
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
  secrets.push(t.tenant.token);
  stores.push(t.tenant.store_id);
  for (const handle of ['second', 'third']) stores.push((await t.ok('tenant.store.create', { name: `Store ${handle}`, handle: `${handle}-${Date.now()}` })).id);
  const page = (store_id: string, slug: string, title: string) => t.ok('content.page.create', { store_id, slug, title, template_key: 'default' });
  await page(stores[0], 'about', 'About us');
  await page(stores[0], 'terms', 'Terms');
  const archived = await page(stores[0], 'old', 'Old page');
  await t.ok('content.page.archive', { page_id: archived.page_id });
  await page(stores[1], 'faq', 'FAQ');
  await t.ok('extension.manifest.register', { extension_id: 'ext.banner', components: [{ component: 'banner', slot: 'home.top', position: 0 }] });
  await t.ok('composition.placement.set', { store: stores[1], extension_id: 'ext.banner', component: 'banner', slot: 'footer', position: 3 });
  botKey = await t.ok('iam.api_key.create', { name: 'ci-bot', scopes: ['order.read'] });
  secrets.push(botKey.token);
  await t.ok('admin_user.invite', { email: 'ana@example.com', name: 'Ana', role: 'admin' });
  const subscription = await t.ok('webhook.subscription.create', { url: hookUrl, event_types: ['*'] });
  subscriptionId = subscription.subscription_id;
  secrets.push(subscription.secret);
  await t.ok('tenant.store.update', { id: stores[2], name: 'Store three' });
  await eventually(async () => {
    const rows = await t.sql(`SELECT 1 FROM identity.webhook_delivery WHERE subscription_id = $1 AND status = 'delivered'`, [subscriptionId]);
    return rows.length ? true : undefined;
  }, 20_000);
  await t.ok('notification.channel.register', {
    key: 'sms_gateway',
    label: 'SMS',
    variant_schema: [
      { name: 'body', label: 'Body', type: 'multiline', required: true, template: true },
      { name: 'footer', label: 'Footer', type: 'text' },
    ],
  });
  await t.ok('notification.template.set', { type_key: 'order.paid', channel_key: 'sms_gateway', locale: 'en', fields: { body: 'Paid {{order_id}}' } });
}, 90_000);
afterAll(async () => {
  await t.stop();
  await new Promise((ok) => receiver.close(ok));
});

const SETTINGS = `query Settings {
  stores(first: 10) { totalCount edges { node { store_id name
    pages { page_id title store { store_id } }
    composition { items { extension_id component slot position source } } } } }
  api_keys(first: 10) { totalCount edges { node { api_key_id name scopes is_owner expires_at revoked revoked_at } } }
  operators(first: 10) { edges { node { admin_user_id email name role status scopes } } }
  webhook_subscriptions(first: 10) { edges { node { subscription_id url event_types enabled
    deliveries { delivery_id event_type status attempts last_error created_at } } } }
  notification_channels(first: 10) { edges { node { channel_key built_in required_fields variant_schema { name required template }
    templates { type_key locale store_id fields } } } }
}`;

describe('the settings page in one request', () => {
  it('shows stores with pages and composition, keys, operators, webhooks with deliveries, channels with required fields and templates', async () => {
    const body = await gql(SETTINGS);
    expect(body.errors).toBeUndefined();
    const { data } = body;
    const byStore = new Map(data.stores.edges.map((e: any) => [e.node.store_id, e.node]));
    expect(data.stores.totalCount).toBe(3);
    expect((byStore.get(stores[0]) as any).pages.map((p: any) => p.title)).toEqual(['About us', 'Terms']);
    expect((byStore.get(stores[0]) as any).pages[0].store).toEqual({ store_id: stores[0] });
    expect((byStore.get(stores[1]) as any).pages.map((p: any) => p.title)).toEqual(['FAQ']);
    expect((byStore.get(stores[2]) as any).pages).toEqual([]);
    expect((byStore.get(stores[0]) as any).composition.items).toEqual([
      { extension_id: 'ext.banner', component: 'banner', slot: 'home.top', position: 0, source: 'manifest' },
    ]);
    expect((byStore.get(stores[1]) as any).composition.items).toEqual([
      { extension_id: 'ext.banner', component: 'banner', slot: 'footer', position: 3, source: 'placement' },
    ]);
    const keys = data.api_keys.edges.map((e: any) => e.node);
    expect(keys).toHaveLength(2);
    expect(keys.find((k: any) => k.api_key_id === botKey.api_key_id)).toMatchObject({
      name: 'ci-bot',
      scopes: ['order.read'],
      is_owner: false,
      revoked: false,
    });
    expect(keys.find((k: any) => k.is_owner).expires_at).toBeNull();
    const [ana] = data.operators.edges.map((e: any) => e.node);
    expect(ana).toMatchObject({ email: 'ana@example.com', role: 'admin', status: 'invited' });
    expect(ana.scopes).toContain('content.read');
    expect(ana.scopes).not.toContain('admin.users.write');
    const [hook] = data.webhook_subscriptions.edges.map((e: any) => e.node);
    expect(hook).toMatchObject({ subscription_id: subscriptionId, url: hookUrl, event_types: ['*'], enabled: true });
    expect(hook.deliveries.length).toBeGreaterThan(0);
    expect(hook.deliveries.map((d: any) => d.event_type)).toContain('tenant.store.updated');
    const times = hook.deliveries.map((d: any) => d.created_at);
    expect(times).toEqual([...times].sort().reverse());
    const channels = data.notification_channels.edges.map((e: any) => e.node);
    expect(channels.map((c: any) => c.channel_key)).toEqual(['email', 'sms_gateway']);
    expect(channels[0]).toMatchObject({ built_in: true, required_fields: ['subject', 'html'], templates: [] });
    expect(channels[1].required_fields).toEqual(['body']);
    expect(channels[1].templates).toEqual([{ type_key: 'order.paid', locale: 'en', store_id: null, fields: { body: 'Paid {{order_id}}' } }]);
  });

  it('never holds a token, a signing secret or their stored forms', async () => {
    const res = await t.graphql(SETTINGS);
    const text = JSON.stringify(res.body);
    for (const secret of secrets) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/whsec_|bok_|secret_hash|secret_sealed|credential_sealed/);
  });

  it('asks content once for the pages of every store listed (batched), not once per store', async () => {
    const content = t.system.runtimes.get('content')!.dataSource;
    const query = `{ stores(first: 10) { edges { node { store_id pages { title } composition { items { slot } } } } } }`;
    const { result, statements } = await statementsDuring(content, () => gql(query));
    expect(result.errors).toBeUndefined();
    expect(result.data.stores.edges).toHaveLength(3);
    expect(statements.filter((s) => /FROM content\.page\b/.test(s))).toHaveLength(1);
    expect(statements.filter((s) => /content\.extension_manifest/.test(s))).toHaveLength(1);
  });

  it('refuses a link to a caller without its read scope, beside the rest of the answer', async () => {
    const body = await gql(`{ stores(first: 1) { edges { node { store_id } } } api_keys(first: 1) { totalCount } }`, {}, botKey.token);
    expect(body.data.stores.edges).toHaveLength(1);
    expect(body.data.api_keys).toBeNull();
    expect(body.errors?.[0].extensions.code).toBe('forbidden');
    expect(body.errors?.[0].message).toContain('admin.users.read');
  });
});

describe('connections', () => {
  it('pages the api keys and the pages of a store by cursor', async () => {
    const first = await gql(`{ api_keys(first: 1, orderBy: { field: name, direction: ASC }) { edges { node { name } } pageInfo { hasNextPage endCursor } } }`);
    expect(first.data.api_keys.edges.map((e: any) => e.node.name)).toEqual(['ci-bot']);
    expect(first.data.api_keys.pageInfo.hasNextPage).toBe(true);
    const after = first.data.api_keys.pageInfo.endCursor;
    const next = await gql(
      `query($after: String) { api_keys(first: 1, after: $after, orderBy: { field: name, direction: ASC }) { edges { node { is_owner } } pageInfo { hasNextPage } } }`,
      {
        after,
      },
    );
    expect(next.data.api_keys.edges.map((e: any) => e.node.is_owner)).toEqual([true]);
    expect(next.data.api_keys.pageInfo.hasNextPage).toBe(false);
    const pages = `query($after: String, $filter: PageFilter) { pages(first: 1, after: $after, filter: $filter) { totalCount edges { node { title } } pageInfo { endCursor } } }`;
    const one = await gql(pages, { filter: { store_id: stores[0] } });
    expect(one.data.pages).toMatchObject({ totalCount: 2, edges: [{ node: { title: 'About us' } }] });
    const two = await gql(pages, { filter: { store_id: stores[0] }, after: one.data.pages.pageInfo.endCursor });
    expect(two.data.pages.edges).toEqual([{ node: { title: 'Terms' } }]);
    const archived = await gql(pages, { filter: { status: 'archived' } });
    expect(archived.data.pages.edges).toEqual([{ node: { title: 'Old page' } }]);
  });

  it('filters keys, operators, subscriptions, templates and notifications', async () => {
    const body = await gql(`{
      live: api_keys(filter: { revoked: false }) { totalCount }
      invited: operators(filter: { status: invited }) { totalCount }
      off: webhook_subscriptions(filter: { enabled: false }) { totalCount }
      sms: notification_templates(filter: { channel_key: "sms_gateway" }) { edges { node { type_key channel_key } } }
      notifications(first: 5) { edges { node { notification_id type_key status } } }
      extension_connections { totalCount }
    }`);
    expect(body.errors).toBeUndefined();
    expect(body.data).toMatchObject({ live: { totalCount: 2 }, invited: { totalCount: 1 }, off: { totalCount: 0 }, extension_connections: { totalCount: 0 } });
    expect(body.data.sms.edges).toEqual([{ node: { type_key: 'order.paid', channel_key: 'sms_gateway' } }]);
    // The invitation's mail is a notification record.
    expect(body.data.notifications.edges.map((e: any) => e.node.type_key)).toContain('admin_user.invited');
  });
});

describe("the notification editor's reads", () => {
  const editor = `query($key: String, $type: String!, $locale: String!) {
    notification_channels(filter: { key: $key }) { edges { node { channel_key
      effective_template(type_key: $type, locale: $locale) { type_key locale level fields rendered }
      message_types { type_key enabled always } } } }
  }`;
  const channelOf = async (key: string, type: string, locale: string, token?: string) => {
    const body = await gql(editor, { key, type, locale }, token);
    return { body, node: body.data?.notification_channels?.edges[0]?.node };
  };

  it('previews the template in use, rendered by the message renderer with example values', async () => {
    const email = await channelOf('email', 'order.paid', 'pt-BR');
    expect(email.body.data.notification_channels.edges).toHaveLength(1);
    expect(email.node.effective_template).toMatchObject({ type_key: 'order.paid', locale: 'pt-BR', level: 'default' });
    expect(email.node.effective_template.fields.subject).toBe('Pagamento recebido do pedido {{order_id}}');
    expect(email.node.effective_template.rendered.subject).toBe('Pagamento recebido do pedido ord_example');
    // A locale without a template of its own falls back to its language, then en.
    expect((await channelOf('email', 'order.paid', 'fr-CA')).node.effective_template.locale).toBe('en');
    const sms = await channelOf('sms_gateway', 'order.paid', 'en-GB');
    expect(sms.node.effective_template).toMatchObject({ level: 'tenant', locale: 'en', rendered: { body: 'Paid ord_example' } });
    // A registered channel has no shipped default.
    expect((await channelOf('sms_gateway', 'order.cancelled', 'en')).node.effective_template).toBeNull();
  });

  it("says whether each message type is on, as the channel's switches set it", async () => {
    await t.ok('notification.channel.set_enabled', { type_key: 'shipment.created', channel_key: 'sms_gateway', enabled: false });
    const { node } = await channelOf('sms_gateway', 'order.paid', 'en');
    expect(node.message_types).toContainEqual({ type_key: 'shipment.created', enabled: false, always: false });
    expect(node.message_types).toContainEqual({ type_key: 'order.paid', enabled: true, always: false });
    const email = await channelOf('email', 'order.paid', 'en');
    expect(email.node.message_types).toContainEqual({ type_key: 'auth.login_code', enabled: true, always: true });
  });

  it('refuses an unknown type, a locale that is no language tag, and a caller without notifications.read, on the field', async () => {
    const unknown = await channelOf('email', 'order.created', 'en');
    expect(unknown.body.errors?.[0]).toMatchObject({ extensions: { code: 'validation_failed' } });
    const locale = await channelOf('email', 'order.paid', 'not a locale');
    expect(locale.body.errors?.[0]).toMatchObject({ extensions: { code: 'validation_failed', field: 'input.locale' } });
    const bot = await gql(`{ notification_channels { totalCount } }`, {}, botKey.token);
    expect(bot.errors?.[0].extensions.code).toBe('forbidden');
  });
});

describe("commands' results name what they changed", () => {
  it('store, api key, operator, subscription, page, channel and template, read afresh', async () => {
    const body = await gql(
      `mutation($store: ID!, $key: ID!) {
        tenant_store_update(input: { id: $store, name: "Renamed" }) { id store { store_id name } }
        iam_api_key_revoke(input: { api_key_id: $key }) { api_key_id api_key { name revoked revoked_at } }
        admin_user_invite(input: { email: "leo@example.com", name: "Leo", role: staff }) { operator { name status scopes } }
        webhook_subscription_rotate_secret(input: { subscription_id: "${subscriptionId}" }) { secret webhook_subscription { url previous_secret_expires_at } }
        content_page_create(input: { store_id: $store, slug: "new", title: "New page", template_key: "default" }) { page_id page { title store { name } } }
        notification_channel_register(input: { key: "push", label: "Push", variant_schema: [{ name: "title", label: "Title", type: text, required: true }] }) {
          notification_channel { channel_key required_fields }
        }
        notification_template_set(input: { type_key: "order.paid", channel_key: "push", locale: "pt-BR", fields: { title: "Pago" } }) {
          notification_template { channel_key locale store_id fields }
        }
      }`,
      { store: stores[2], key: botKey.api_key_id },
    );
    expect(body.errors).toBeUndefined();
    const d = body.data;
    secrets.push(d.webhook_subscription_rotate_secret.secret);
    expect(d.tenant_store_update.store).toEqual({ store_id: stores[2], name: 'Renamed' });
    expect(d.iam_api_key_revoke.api_key).toMatchObject({ name: 'ci-bot', revoked: true });
    expect(d.iam_api_key_revoke.api_key.revoked_at).not.toBeNull();
    expect(d.admin_user_invite.operator).toMatchObject({ name: 'Leo', status: 'invited' });
    expect(d.webhook_subscription_rotate_secret.webhook_subscription.previous_secret_expires_at).not.toBeNull();
    expect(JSON.stringify(d.webhook_subscription_rotate_secret.webhook_subscription)).not.toContain('whsec_');
    expect(d.content_page_create.page).toEqual({ title: 'New page', store: { name: 'Renamed' } });
    expect(d.notification_channel_register.notification_channel).toEqual({ channel_key: 'push', required_fields: ['title'] });
    expect(d.notification_template_set.notification_template).toEqual({ channel_key: 'push', locale: 'pt-BR', store_id: null, fields: { title: 'Pago' } });
  });

  it('leaves REST results as they were', async () => {
    expect(await t.ok('tenant.store.update', { id: stores[2], name: 'Again' })).toEqual({ id: stores[2] });
  });
});

describe('tenants apart', () => {
  it("another tenant sees only its own, and none of this tenant's stores, pages, keys or channels", async () => {
    const other = await t.newTenant();
    const body = await gql(
      `query($store: ID!) {
        stores { edges { node { store_id pages { title } } } }
        api_keys { edges { node { api_key_id } } }
        pages(filter: { store_id: $store }) { totalCount }
        notification_channels { edges { node { channel_key } } }
        webhook_subscriptions { totalCount }
      }`,
      { store: stores[0] },
      other.token,
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.stores.edges).toEqual([{ node: { store_id: other.store_id, pages: [] } }]);
    expect(body.data.api_keys.edges).toEqual([{ node: { api_key_id: other.api_key_id } }]);
    expect(body.data.pages.totalCount).toBe(0);
    expect(body.data.notification_channels.edges).toEqual([{ node: { channel_key: 'email' } }]);
    expect(body.data.webhook_subscriptions.totalCount).toBe(0);
    const refused = await gql(
      `mutation($store: ID!) { tenant_store_update(input: { id: $store, name: "Mine" }) { store { name } } }`,
      { store: stores[0] },
      other.token,
    );
    expect(refused.errors?.[0].extensions.code).toBe('conflict');
  });
});
