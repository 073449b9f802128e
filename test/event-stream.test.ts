import { STREAM_LIMITS } from '../gateway/src/event-stream';
import { startTestSystem, type TestSystem } from './helpers';

let t: TestSystem;
let stopped = false;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(async () => {
  if (!stopped) await t.stop();
});

interface Frame {
  id?: string;
  data?: Record<string, any>;
  comment?: string;
}

/** A server-sent events reader over fetch, as a browser app holding its key in a header reads the stream. */
async function openStream(token: string, options: { lastEventId?: string; query?: Record<string, string> } = {}) {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.lastEventId) headers['last-event-id'] = options.lastEventId;
  const qs = new URLSearchParams(options.query ?? {}).toString();
  const res = await fetch(`${t.url}/v1/stream/events${qs ? `?${qs}` : ''}`, { headers, signal: controller.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let ended = false;
  const next = async (): Promise<Frame | null> => {
    for (;;) {
      const end = buffered.indexOf('\n\n');
      if (end >= 0) {
        const block = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        const frame: Frame = {};
        for (const line of block.split('\n')) {
          if (line.startsWith(':')) frame.comment = line.slice(1).trim();
          else if (line.startsWith('id: ')) frame.id = line.slice(4);
          else if (line.startsWith('data: ')) frame.data = JSON.parse(line.slice(6));
        }
        return frame;
      }
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        return null;
      }
      buffered += decoder.decode(value, { stream: true });
    }
  };
  return {
    res,
    next,
    /** The next event (a frame with data) of one of these types. */
    async event(...types: string[]): Promise<Frame & { data: Record<string, any> }> {
      for (;;) {
        const frame = await next();
        if (!frame) throw new Error('the stream ended');
        if (frame.data && (!types.length || types.includes(frame.data.type))) return frame as Frame & { data: Record<string, any> };
      }
    },
    /** The id-only frame the stream starts with: it is open and reading from now. */
    async started(): Promise<string> {
      for (;;) {
        const frame = await next();
        if (!frame) throw new Error('the stream ended');
        if (frame.id && !frame.data) return frame.id;
      }
    },
    ended: () => ended,
    close: () => controller.abort(),
  };
}

/** A refusal's documented body. */
const errorOf = async (res: Response) => ((await res.json()) as { error: { kind: string; message: string } }).error;

let handles = 0;
const product = (token = t.tenant.token) => t.ok('catalog.product.create', { title: 'Stream shoe', handle: `stream-shoe-${++handles}` }, token);
const keyWith = async (scopes: string[]) => (await t.ok('iam.api_key.create', { name: `stream ${scopes.join(' ')}`, scopes })).token as string;

describe('GET /v1/stream/events', () => {
  it('refuses a call without a key (401) and a key without events.read (403 forbidden naming the scope)', async () => {
    const anonymous = await fetch(`${t.url}/v1/stream/events`);
    expect(anonymous.status).toBe(401);
    expect((await errorOf(anonymous)).kind).toBe('unauthorized');
    const res = await fetch(`${t.url}/v1/stream/events`, { headers: { authorization: `Bearer ${await keyWith(['catalog.product.write'])}` } });
    expect(res.status).toBe(403);
    const error = await errorOf(res);
    expect(error.kind).toBe('forbidden');
    expect(error.message).toContain('events.read');
  });

  it('refuses a Last-Event-ID it did not send, and an unknown parameter', async () => {
    const bogus = await fetch(`${t.url}/v1/stream/events`, { headers: { authorization: `Bearer ${t.tenant.token}`, 'last-event-id': 'not-ours' } });
    expect(bogus.status).toBe(400);
    expect((await errorOf(bogus)).kind).toBe('validation_failed');
    const unknown = await fetch(`${t.url}/v1/stream/events?since=1`, { headers: { authorization: `Bearer ${t.tenant.token}` } });
    expect(unknown.status).toBe(400);
  });

  it('sends a product created through REST as an event with an id; resuming from that id gives only what followed', async () => {
    const stream = await openStream(t.tenant.token);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    await stream.started();
    const first = (await product()).product_id;
    const created = await stream.event('catalog.product.created');
    expect(created.id).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(created.data).toMatchObject({ type: 'catalog.product.created', payload: expect.objectContaining({ product_id: first }) });
    expect(Object.keys(created.data).sort()).toEqual(['actor_id', 'event_id', 'occurred_at', 'payload', 'request_id', 'type']);
    stream.close();

    const second = (await product()).product_id;
    const third = (await product()).product_id;
    const resumed = await openStream(t.tenant.token, { lastEventId: created.id });
    expect((await resumed.event('catalog.product.created')).data.payload.product_id).toBe(second);
    const next = await resumed.event('catalog.product.created');
    expect(next.data.payload.product_id).toBe(third);
    resumed.close();

    // The query parameter resumes as the header does (for clients that cannot set it).
    const byQuery = await openStream(t.tenant.token, { query: { last_event_id: next.id! } });
    await byQuery.started();
    const fourth = (await product()).product_id;
    expect((await byQuery.event('catalog.product.created')).data.payload.product_id).toBe(fourth);
    byQuery.close();
  });

  it("never shows another tenant's events", async () => {
    const other = await t.newTenant();
    const stream = await openStream(t.tenant.token, { query: { type: 'catalog.product.created' } });
    await stream.started();
    await product(other.token);
    const ours = (await product()).product_id;
    // Events come in commit order within a subgraph: the other tenant's, committed first, would come first.
    expect((await stream.event()).data.payload.product_id).toBe(ours);
    stream.close();
  });

  it('filters by type and masks personal fields without pii.read, as the events read does', async () => {
    const token = await keyWith(['events.read']);
    const stream = await openStream(token, { query: { type: 'admin_user.invited' } });
    await stream.started();
    await product();
    await t.ok('admin_user.invite', { email: 'stream@example.com', name: 'Stream Reader', role: 'staff' });
    const invited = await stream.event();
    expect(invited.data.type).toBe('admin_user.invited');
    expect(JSON.stringify(invited.data)).not.toContain('stream@example.com');
    const read = await t.read('/internal/events', { type: 'admin_user.invited' }, token);
    expect(invited.data.payload).toEqual(read.body.items[0].payload);
    stream.close();
  });

  it(`keeps at most ${STREAM_LIMITS.perTenant} streams open per tenant`, async () => {
    const tenant = await t.newTenant();
    const streams = await Promise.all(Array.from({ length: STREAM_LIMITS.perTenant }, () => openStream(tenant.token)));
    for (const stream of streams) await stream.started();
    const refused = await fetch(`${t.url}/v1/stream/events`, { headers: { authorization: `Bearer ${tenant.token}` } });
    expect(refused.status).toBe(429);
    // The cap refused, not the credential's bucket: its headers say so, and when to try again.
    expect([refused.headers.get('retry-after'), refused.headers.get('ratelimit'), refused.headers.get('ratelimit-policy')]).toEqual([
      '1',
      `limit=${STREAM_LIMITS.perTenant}, remaining=0, reset=1`,
      `${STREAM_LIMITS.perTenant};w=1`,
    ]);
    expect(await errorOf(refused)).toMatchObject({ kind: 'rate_limited', retry_after: 1 });
    streams[0].close();
    // Closing one frees its place (the server sees the close on its next write or poll).
    const again = await (async () => {
      for (;;) {
        const res = await fetch(`${t.url}/v1/stream/events`, { headers: { authorization: `Bearer ${tenant.token}` } });
        if (res.status === 200) return res;
        await res.arrayBuffer();
      }
    })();
    expect(again.status).toBe(200);
    await again.body!.cancel();
    for (const stream of streams.slice(1)) stream.close();
  });

  it('ends open streams when the system stops, without holding the stop', async () => {
    const stream = await openStream(t.tenant.token);
    await stream.started();
    stopped = true;
    const stopping = t.stop();
    // The stream ends as the gateway starts closing, before the rest of the system stops.
    while (await stream.next());
    expect(stream.ended()).toBe(true);
    await stopping;
    // Idle keep-alive connections of earlier requests may hold the close (see test/http-refusals.test.ts).
  }, 120_000);
});
