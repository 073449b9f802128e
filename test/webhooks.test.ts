import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { SubgraphRuntime } from '@backoffice/platform';
import { authenticatorOf } from '../subgraphs/identity/src/domain/authenticate';
import { iamApiKeyRevoke } from '../subgraphs/identity/src/operations/iam.api_key.revoke';
import { eventually, startTestSystem, type TestSystem } from './helpers';

/**
 * Webhooks end to end: the whole system, a real HTTP receiver verifying with the `standardwebhooks`
 * package, and the bus's real retries (the base delay set to 1 s so that a retry takes seconds).
 */
interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { event_id: string; type: string; tenant_id: string; request_id: string | null; payload: Record<string, unknown> };
}

let t: TestSystem;
let receiver: Server;
let hookUrl: string;
const received: Received[] = [];
/** Answers the receiver gives, per event id, before it answers 200 (e.g. [500, 500]). */
const scripted = new Map<string, number[]>();
let failEverything = false;
const ENV = {
  WEBHOOK_ALLOW_INSECURE: '1',
  WEBHOOK_ALLOW_PRIVATE: '1',
  WEBHOOK_RETRY_DELAY_SECONDS: '1',
  WEBHOOK_SECRET_KEY: 'test-key-test-key-test-key-test-key-0001',
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const event = JSON.parse(body) as Received['event'];
      received.push({ headers: req.headers, body, event });
      const script = scripted.get(event.event_id);
      const status = failEverything ? 500 : (script?.shift() ?? 200);
      res.writeHead(status).end();
    });
  });
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
}, 60_000);
afterAll(async () => {
  await t.stop();
  await new Promise((ok) => receiver.close(ok));
});

const subscribe = async (input: Record<string, unknown>, token?: string) => {
  const res = await t.command('webhook.subscription.create', { url: hookUrl, ...input }, token);
  expect(res.status).toBe(200);
  return res.body as { subscription_id: string; secret: string };
};
const createKey = async (name: string, token?: string) => {
  const res = await t.command('iam.api_key.create', { name, scopes: ['audit.read'] }, token);
  expect(res.status).toBe(200);
  return res.body as { api_key_id: string; token: string };
};
const arrivalsOf = (predicate: (r: Received) => boolean, count = 1, ms = 15_000) =>
  eventually(async () => {
    const found = received.filter(predicate);
    return found.length >= count ? found : undefined;
  }, ms);
const forKey =
  (apiKeyId: string, type = 'iam.api_key.created') =>
  (r: Received) =>
    r.event.type === type && r.event.payload.api_key_id === apiKeyId;
const identity = () => t.system.runtimes.get('identity') as SubgraphRuntime;

describe('webhook.subscription.create', () => {
  it('answers the secret once, in the Standard Webhooks form, and never again', async () => {
    const created = await subscribe({ event_types: ['catalog.brand.created'], description: 'brands' });
    expect(created.subscription_id).toMatch(/^whs_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await t.read('/internal/webhooks');
    expect(listed.status).toBe(200);
    const item = listed.body.items.find((s: { subscription_id: string }) => s.subscription_id === created.subscription_id);
    expect(item).toMatchObject({ url: hookUrl, event_types: ['catalog.brand.created'], description: 'brands', enabled: true, failing_since: null });
    const secretBody = created.secret.slice('whsec_'.length);
    expect(JSON.stringify(listed.body)).not.toContain(secretBody);
    const stored = await t.sql(`SELECT secret_sealed FROM identity.webhook_subscription WHERE id = $1`, [created.subscription_id]);
    expect(stored[0].secret_sealed).toMatch(/^v1\./);
    expect(stored[0].secret_sealed).not.toContain(secretBody);
    const events = await t.read('/internal/events', { type: 'webhook.subscription.created' });
    expect(JSON.stringify(events.body)).not.toContain(secretBody);
    expect(t.logs.join('\n')).not.toContain(secretBody);
    await t.command('webhook.subscription.delete', { subscription_id: created.subscription_id });
  });

  it.each([
    ['https', { url: 'http://example.com/hook', event_types: ['iam.api_key.created'] }],
    ['https', { url: 'ftp://127.0.0.1/hook', event_types: ['iam.api_key.created'] }],
    ['credentials', { url: 'https://user:pw@example.com/hook', event_types: ['iam.api_key.created'] }],
    ['absolute URL', { url: 'not a url', event_types: ['iam.api_key.created'] }],
    ['not a declared event', { url: 'https://example.com/hook', event_types: ['order.nonsense'] }],
    ['event_types', { url: 'https://example.com/hook', event_types: [] }],
    ['description', { url: 'https://example.com/hook', event_types: ['iam.api_key.created'], description: 'x'.repeat(201) }],
    ['url', { url: `https://example.com/${'x'.repeat(2048)}`, event_types: ['iam.api_key.created'] }],
  ])('refuses bad input: validation_failed naming %s', async (words, input) => {
    const res = await t.command('webhook.subscription.create', input);
    expect(res.status).toBe(400);
    expect(res.body.error.kind).toBe('validation_failed');
    expect(res.body.error.message).toContain(words);
  });

  it('needs webhooks.write; reads need webhooks.read', async () => {
    const key = await createKey('no webhooks');
    const res = await t.command('webhook.subscription.create', { url: hookUrl, event_types: ['*'] }, key.token);
    expect(res.status).toBe(403);
    expect((await t.read('/internal/webhooks', {}, key.token)).status).toBe(403);
    expect((await t.read('/internal/webhooks/deliveries', {}, key.token)).status).toBe(403);
  });
});

describe('deliveries', () => {
  let secret: string;
  let subscriptionId: string;
  beforeAll(async () => {
    ({ secret, subscription_id: subscriptionId } = await subscribe({ event_types: ['iam.api_key.created', 'iam.api_key.revoked'] }));
  });

  it('POST the event envelope, signed per Standard Webhooks, webhook-id being the event id', async () => {
    const key = await createKey('signed');
    const [arrival] = await arrivalsOf(forKey(key.api_key_id));
    const verified = new Webhook(secret).verify(arrival.body, arrival.headers as Record<string, string>) as Received['event'];
    expect(verified).toMatchObject({ type: 'iam.api_key.created', tenant_id: t.tenant.tenant_id, payload: { api_key_id: key.api_key_id, name: 'signed' } });
    expect(arrival.headers['webhook-id']).toBe(verified.event_id);
    expect(Math.abs(Number(arrival.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(60);
    expect(arrival.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(arrival.headers['content-type']).toBe('application/json');
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(arrival.body, arrival.headers as Record<string, string>)).toThrow();
    expect(arrival.body).not.toContain(key.token);
    const metrics = await eventually(async () => {
      const text = await (await fetch(`${t.url}/metrics`)).text();
      return text.includes(`backoffice_webhook_deliveries_total{subscription="${subscriptionId}",outcome="delivered"}`) ? text : undefined;
    });
    expect(metrics).toContain('backoffice_consumer_deliveries_total{subgraph="identity",consumer="webhooks",outcome="handled"}');
  });

  it('are retried after 500s with the same webhook-id until a 2xx, and the trail shows it', async () => {
    // The key's event id is known only once it is created: fail every answer until then.
    failEverything = true;
    const key = await createKey('flaky receiver');
    const first = await arrivalsOf(forKey(key.api_key_id));
    scripted.set(first[0].event.event_id, [500]);
    failEverything = false;
    const all = await arrivalsOf(forKey(key.api_key_id), 3, 30_000);
    expect(new Set(all.map((a) => a.headers['webhook-id']))).toEqual(new Set([first[0].event.event_id]));
    for (const arrival of all) expect(() => new Webhook(secret).verify(arrival.body, arrival.headers as Record<string, string>)).not.toThrow();
    const trail = await eventually(async () => {
      const res = await t.read('/internal/webhooks/deliveries', { subscription_id: subscriptionId, status: 'delivered' });
      return res.body.items.find((d: { event_id: string }) => d.event_id === first[0].event.event_id);
    });
    expect(trail).toMatchObject({ status: 'delivered', attempts: 3, last_response_status: 200, last_error: null, event_type: 'iam.api_key.created' });
    const subscription = (await t.read('/internal/webhooks')).body.items.find((s: { subscription_id: string }) => s.subscription_id === subscriptionId);
    expect(subscription.failing_since).toBeNull();
  });

  it('none for a command that rolled back', async () => {
    const key = await createKey('survives');
    // The real revoke (lock, stage, emit) followed by a failure: its event is rolled back with it.
    const failing = {
      ...iamApiKeyRevoke,
      handler: async (call: Parameters<typeof iamApiKeyRevoke.handler>[0]) => {
        await iamApiKeyRevoke.handler(call);
        throw new Error('fails after emitting');
      },
    };
    const context = { actor: await authenticatorOf(identity()).authenticate(t.tenant.token), request_id: 'req_rollback' };
    await expect(identity().executor.execute(failing, { api_key_id: key.api_key_id }, context)).rejects.toMatchObject({ kind: 'internal' });
    // The key is still live, and a real revoke afterwards arrives alone.
    expect((await t.read('/internal/whoami', {}, key.token)).status).toBe(200);
    const revoked = await t.command('iam.api_key.revoke', { api_key_id: key.api_key_id });
    expect(revoked.status).toBe(200);
    const arrivals = await arrivalsOf(forKey(key.api_key_id, 'iam.api_key.revoked'));
    await new Promise((ok) => setTimeout(ok, 1000));
    expect(received.filter(forKey(key.api_key_id, 'iam.api_key.revoked'))).toHaveLength(1);
    expect(arrivals[0].event.request_id).not.toBe('req_rollback');
  });

  it("carry only the subscriber's own tenant's events", async () => {
    const other = await t.newTenant();
    const theirs = await createKey('another tenant', other.token);
    const ours = await createKey('after theirs');
    await arrivalsOf(forKey(ours.api_key_id));
    await new Promise((ok) => setTimeout(ok, 500));
    expect(received.filter((r) => r.event.tenant_id === other.tenant_id)).toEqual([]);
    expect(received.filter(forKey(theirs.api_key_id))).toEqual([]);
  });

  it('are redelivered on webhook.delivery.retry, with the same webhook-id', async () => {
    const key = await createKey('again');
    const [first] = await arrivalsOf(forKey(key.api_key_id));
    const delivery = await eventually(async () => {
      const res = await t.read('/internal/webhooks/deliveries', { subscription_id: subscriptionId, status: 'delivered' });
      return res.body.items.find((d: { event_id: string }) => d.event_id === first.event.event_id);
    });
    const retried = await t.command('webhook.delivery.retry', { delivery_id: delivery.delivery_id });
    expect(retried.body).toEqual({ delivery_id: delivery.delivery_id, status: 'pending' });
    const both = await arrivalsOf(forKey(key.api_key_id), 2);
    expect(both[1].headers['webhook-id']).toBe(first.headers['webhook-id']);
    const other = await t.newTenant();
    const foreign = await t.command('webhook.delivery.retry', { delivery_id: delivery.delivery_id }, other.token);
    expect(foreign.status).toBe(409);
  });

  it('are signed by both secrets for 24 hours after a rotation, then by the new one alone', async () => {
    const rotated = await t.command('webhook.subscription.rotate_secret', { subscription_id: subscriptionId });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(secret);
    expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const during = await createKey('during overlap');
    const [overlap] = await arrivalsOf(forKey(during.api_key_id));
    expect(String(overlap.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(overlap.body, overlap.headers as Record<string, string>)).not.toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(overlap.body, overlap.headers as Record<string, string>)).not.toThrow();
    // The overlap ends: the old secret no longer signs.
    await t.sql(`UPDATE identity.webhook_subscription SET previous_secret_until = now() - interval '1 second' WHERE id = $1`, [subscriptionId]);
    const after = await createKey('after overlap');
    const [late] = await arrivalsOf(forKey(after.api_key_id));
    expect(String(late.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() => new Webhook(secret).verify(late.body, late.headers as Record<string, string>)).toThrow();
    expect(() => new Webhook(rotated.body.secret).verify(late.body, late.headers as Record<string, string>)).not.toThrow();
    secret = rotated.body.secret;
  });

  it('disable a subscription failing for 3 days, emitting webhook.subscription.disabled', async () => {
    const doomed = await subscribe({ event_types: ['iam.api_key.created'] });
    // Pretend its receiver has been failing since four days ago; it fails once more now.
    await t.sql(`UPDATE identity.webhook_subscription SET failing_since = now() - interval '4 days' WHERE id = $1`, [doomed.subscription_id]);
    failEverything = true;
    try {
      await createKey('the last straw');
      const listed = await eventually(async () => {
        const res = await t.read('/internal/webhooks');
        const item = res.body.items.find((s: { subscription_id: string }) => s.subscription_id === doomed.subscription_id);
        return item && !item.enabled ? item : undefined;
      }, 15_000);
      expect(listed.disabled_reason).toContain('failing since');
    } finally {
      failEverything = false;
    }
    const events = await t.read('/internal/events', { type: 'webhook.subscription.disabled' });
    expect(events.body.items[0].payload).toMatchObject({ subscription_id: doomed.subscription_id, url: hookUrl });
    const failed = await t.read('/internal/webhooks/deliveries', { subscription_id: doomed.subscription_id, status: 'failed' });
    expect(failed.body.total).toBeGreaterThanOrEqual(1);
    // Disabled, it gets nothing; enabled again, it gets new events.
    const quiet = await createKey('while disabled');
    await arrivalsOf(forKey(quiet.api_key_id));
    const deliveries = await t.read('/internal/webhooks/deliveries', { subscription_id: doomed.subscription_id });
    expect(deliveries.body.items.map((d: { event_type: string; status: string }) => d.status)).not.toContain('pending');
    const enabled = await t.command('webhook.subscription.update', { subscription_id: doomed.subscription_id, enabled: true });
    expect(enabled.body).toMatchObject({ enabled: true, failing_since: null, disabled_reason: null });
    await t.command('webhook.subscription.delete', { subscription_id: doomed.subscription_id });
  });
});

describe('routing', () => {
  it('an event nobody subscribed to stays unrouted; once subscribed, its type is routed', async () => {
    const brand = async (name: string) => {
      const res = await t.command('catalog.brand.create', { name });
      expect(res.status).toBe(200);
      return res.body.brand_id as string;
    };
    const statusOf = (brandId: string) =>
      eventually(async () => {
        const res = await t.read('/internal/events', { type: 'catalog.brand.created' });
        const item = res.body.items.find((e: { payload: { brand_id: string } }) => e.payload.brand_id === brandId);
        return item && item.status !== 'pending' ? item.status : undefined;
      });
    expect(await statusOf(await brand('Nobody listens'))).toBe('unrouted');
    const created = await subscribe({ event_types: ['catalog.brand.created'] });
    const heard = await brand('Someone listens');
    expect(await statusOf(heard)).toBe('delivered');
    await arrivalsOf((r) => r.event.type === 'catalog.brand.created' && r.event.payload.brand_id === heard);
    // Narrowed to another type, brands are unrouted again.
    await t.command('webhook.subscription.update', { subscription_id: created.subscription_id, event_types: ['catalog.category.created'] });
    expect(await statusOf(await brand('Nobody again'))).toBe('unrouted');
    await t.command('webhook.subscription.delete', { subscription_id: created.subscription_id });
  });

  it('update and delete act only on the caller tenant’s subscriptions', async () => {
    const mine = await subscribe({ event_types: ['*'] });
    const other = await t.newTenant();
    const update = await t.command('webhook.subscription.update', { subscription_id: mine.subscription_id, enabled: false }, other.token);
    expect(update.status).toBe(409);
    expect((await t.command('webhook.subscription.delete', { subscription_id: mine.subscription_id }, other.token)).status).toBe(409);
    expect((await t.command('webhook.subscription.rotate_secret', { subscription_id: mine.subscription_id }, other.token)).status).toBe(409);
    expect((await t.read('/internal/webhooks', {}, other.token)).body.items).toEqual([]);
    expect((await t.command('webhook.subscription.delete', { subscription_id: mine.subscription_id })).body).toEqual({
      subscription_id: mine.subscription_id,
      deleted: true,
    });
  });
});
