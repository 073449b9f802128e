import type { ServerResponse } from 'node:http';
import type { ApolloServer } from '@apollo/server';
import { AppError, asAppError, fieldName, forbidden, RateLimited, rateHeaders, selectionOf, t, typeStem, unauthorized, validate } from '@backoffice/platform';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Admission, Gatekeeper } from './admission';
import { executeThroughGateway } from './execute';
import type { GatewayRequestContext } from './gateway';
import { sendError } from './rest';
import { decodePosition, encodePosition, type StreamPosition } from './stream-position';
import { OPERATIONS, SUBGRAPHS } from './subgraphs';
import { credentialOf } from './session-cookie';

/** The bounds of the live event stream (docs/events-and-webhooks.md, *Live events*). */
export const STREAM_LIMITS = {
  /** Streams open at once per tenant, and in the whole process: one more is refused with 429. */
  perTenant: 5,
  total: 1000,
  /** Bytes written but not yet taken by the reader: past this the stream is cut (it resumes by Last-Event-ID). */
  bufferedBytes: 1_048_576,
  /** A comment line this often, so proxies keep an idle stream open. */
  heartbeatMs: 15_000,
  /** How often each subgraph's outbox is asked for what followed, when the last answer was not a full page. */
  pollMs: 1_000,
  /** How often the bearer is authenticated again: a revoked key's stream ends within this. */
  renewMs: 30_000,
  /** Events asked of each subgraph per poll. */
  page: 100,
};

export const STREAM_PATH = '/v1/stream/events';
const OPERATION = 'stream.events';
const SCOPE = 'events.read';

interface FeedItem {
  event_id: string;
  type: string;
  actor_id: string | null;
  request_id: string | null;
  payload: Record<string, unknown>;
  occurred_at: string;
  position: string;
}

const NAMES = SUBGRAPHS.map((s) => s.name);
const feedOf = (name: string) => `${name}.event_feed`;
// One document asks every subgraph's feed at once, each with its own position (aliases are the subgraphs' names).
const selection = (name: string) => {
  const routed = OPERATIONS.get(feedOf(name));
  if (!routed) throw new Error(`the ${name} subgraph serves no ${feedOf(name)} read`);
  return selectionOf(routed.operation.result);
};
const DOCUMENT = `query Stream_events(${NAMES.map((n) => `$${n}: ${typeStem(feedOf(n))}Input`).join(', ')}) { ${NAMES.map(
  (n) => `${n}: ${fieldName(feedOf(n))}(input: $${n})${selection(n)}`,
).join(' ')} }`;

/**
 * A cap on streams open at once refused: a place frees when a stream closes, which the server sees
 * within a poll, so that is when to ask again (and, no bucket refilling, the policy's window).
 */
function streamsCapped(limit: number, where: string): RateLimited {
  const seconds = Math.max(1, Math.ceil(STREAM_LIMITS.pollMs / 1000));
  return new RateLimited(
    { allowed: false, limit, remaining: 0, retryAfter: seconds, reset: seconds, window: seconds },
    `at most ${limit} event streams may be open ${where}; close one first (retry after ${seconds}s)`,
  );
}

/** The query: the events read's type filter, and the resume point for clients that cannot set Last-Event-ID. */
const streamQuery = t.object({
  type: t.optional(t.id()),
  last_event_id: t.optional(t.string({ minLength: 1, maxLength: 1000, description: 'as the Last-Event-ID header' })),
});

/** Four subgraphs' events, each in its own order, interleaved by time: a subgraph's own order is never broken. */
function interleave(parts: Array<{ name: string; items: FeedItem[] }>): Array<{ name: string; item: FeedItem }> {
  const merged: Array<{ name: string; item: FeedItem }> = [];
  const heads = parts.map(() => 0);
  for (;;) {
    let next = -1;
    parts.forEach((part, i) => {
      const item = part.items[heads[i]];
      if (item && (next < 0 || item.occurred_at < parts[next].items[heads[next]].occurred_at)) next = i;
    });
    if (next < 0) return merged;
    merged.push({ name: parts[next].name, item: parts[next].items[heads[next]++] });
  }
}

/** One open stream: its reader, where it stands, and what keeps it going. */
class Stream {
  closed = false;
  private sentId = '';
  private wake: (() => void) | null = null;
  private readonly heartbeat: NodeJS.Timeout;

  constructor(
    readonly res: ServerResponse,
    public position: StreamPosition,
    private readonly onClose: () => void,
  ) {
    this.heartbeat = setInterval(() => this.write(': keep-alive\n\n'), STREAM_LIMITS.heartbeatMs);
    res.on('close', () => this.close());
  }

  /** Writes, and cuts a reader that lets more than the bound pile up. */
  write(text: string): void {
    if (this.closed) return;
    this.res.write(text);
    if (this.res.writableLength > STREAM_LIMITS.bufferedBytes) this.close(true);
  }

  send(item: FeedItem): void {
    const { position: _omit, ...event } = item;
    this.sentId = encodePosition(this.position);
    this.write(`id: ${this.sentId}\ndata: ${JSON.stringify(event)}\n\n`);
  }

  /** An `id:` alone when the position moved without an event (the start): a reconnection resumes from here. */
  mark(): void {
    const id = encodePosition(this.position);
    if (id === this.sentId) return;
    this.sentId = id;
    this.write(`id: ${id}\n\n`);
  }

  /** Waits the poll interval, or until the reader drained what was written, or the stream closed. */
  pause(ms: number | 'drain'): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.res.off('drain', done);
        this.wake = null;
        resolve();
      };
      const timer = ms === 'drain' ? undefined : setTimeout(done, ms);
      if (ms === 'drain') this.res.once('drain', done);
      this.wake = done;
    });
  }

  close(cut = false): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.heartbeat);
    this.wake?.();
    this.onClose();
    // A cut reader's buffer is not flushed: it is what grew too large.
    if (cut) this.res.destroy();
    else if (!this.res.writableEnded) this.res.end();
  }
}

export interface EventStreamDeps {
  apollo: ApolloServer<GatewayRequestContext>;
  gatekeeper: Gatekeeper;
  log: (line: string) => void;
}

/**
 * `GET /v1/stream/events`: the tenant's events as server-sent events, as the events read shows them
 * (scope events.read, personal fields masked without pii.read, `type` filter), resumable by
 * `Last-Event-ID` (header, or `last_event_id` in the query). Events come from each subgraph's
 * `<subgraph>.event_feed` read through the gateway, in one process or over HTTP alike.
 */
export function registerEventStream(app: FastifyInstance, { apollo, gatekeeper, log }: EventStreamDeps): void {
  const open = new Set<Stream>();
  const perTenant = new Map<string, number>();

  async function admit(request: FastifyRequest, requestId: string) {
    // The header, or the admin's session cookie from the gateway's own pages (an EventSource sends cookies).
    const credential = credentialOf(request);
    const admission = await gatekeeper.admit(credential, request.ip, requestId, OPERATION);
    const actor = admission.call.actor;
    if (!actor || credential === undefined) throw unauthorized();
    try {
      if (!actor.scopes.includes(SCOPE)) throw forbidden(SCOPE);
      const { type, last_event_id } = validate<{ type?: string; last_event_id?: string }>(streamQuery, { ...(request.query as object) }, true);
      // An empty Last-Event-ID is none (an EventSource sends it so after an empty `id:`).
      const header = request.headers['last-event-id'];
      const lastId = last_event_id ?? ((typeof header === 'string' && header) || undefined);
      const position = lastId === undefined ? {} : decodePosition(lastId, NAMES);
      if ((perTenant.get(actor.tenant_id) ?? 0) >= STREAM_LIMITS.perTenant) throw streamsCapped(STREAM_LIMITS.perTenant, 'per tenant');
      if (open.size >= STREAM_LIMITS.total) throw streamsCapped(STREAM_LIMITS.total, 'in this gateway');
      return { admission, credential, type, position, tenant: actor.tenant_id };
    } catch (error) {
      if (error instanceof AppError) gatekeeper.refused(admission.call, OPERATION, error.kind);
      throw error;
    }
  }

  /** Asks every subgraph what followed the stream's position and sends it; answers whether a page came back full. */
  async function poll(stream: Stream, admission: Admission, type: string | undefined): Promise<boolean> {
    const variables = Object.fromEntries(NAMES.map((n) => [n, { after: stream.position[n], type, limit: STREAM_LIMITS.page }]));
    const refused = (op: string, kind: string) => gatekeeper.refused(admission.call, op, kind);
    const data = (await executeThroughGateway(apollo, DOCUMENT, variables, admission, refused)) as Record<string, { items: FeedItem[]; position: string }>;
    if (stream.closed) return false;
    // A subgraph asked from now answers its position and nothing else: set before any event's id is written.
    for (const n of NAMES) stream.position[n] ??= data[n].position;
    for (const { name, item } of interleave(NAMES.map((n) => ({ name: n, items: data[n].items })))) {
      stream.position[name] = item.position;
      stream.send(item);
    }
    for (const n of NAMES) stream.position[n] = data[n].position;
    stream.mark();
    return NAMES.some((n) => data[n].items.length === STREAM_LIMITS.page);
  }

  async function run(stream: Stream, authorization: string, first: Admission, type: string | undefined): Promise<void> {
    let admission = first;
    let renewAt = Date.now() + STREAM_LIMITS.renewMs;
    while (!stream.closed) {
      try {
        if (Date.now() >= renewAt) {
          const renewed = await gatekeeper.renew(authorization, admission);
          // A key revoked, expired or stripped of the scope ends its stream.
          if (!renewed?.call.actor?.scopes.includes(SCOPE)) return stream.close();
          admission = renewed;
          renewAt = Date.now() + STREAM_LIMITS.renewMs;
        }
        const full = await poll(stream, admission, type);
        await stream.pause(full && stream.res.writableLength > 0 ? 'drain' : full ? 0 : STREAM_LIMITS.pollMs);
      } catch (error) {
        // A subgraph away for a moment: the stream waits and asks again from where it stood.
        if (!stream.closed) log(`event stream ${admission.call.request_id}: ${(error as Error).message}`);
        await stream.pause(STREAM_LIMITS.pollMs);
      }
    }
  }

  app.get(STREAM_PATH, async (request, reply) => {
    const requestId = reply.getHeader('x-request-id') as string;
    request.observed?.named(OPERATION);
    let admitted: Awaited<ReturnType<typeof admit>>;
    try {
      admitted = await admit(request, requestId);
    } catch (error) {
      return sendError(reply, asAppError(error, requestId, log));
    }
    const { admission, credential, type, position, tenant } = admitted;
    request.observed?.admitted(admission.call.actor);
    perTenant.set(tenant, (perTenant.get(tenant) ?? 0) + 1);
    reply.hijack();
    const headers = {
      ...reply.getHeaders(),
      ...rateHeaders(admission.rate),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx and some proxies buffer responses unless told not to.
      'x-accel-buffering': 'no',
      // The socket closes with the stream: ended at stop, a kept-alive one would hold the server's close.
      connection: 'close',
    };
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) reply.raw.setHeader(name, value);
    reply.raw.writeHead(200);
    const stream = new Stream(reply.raw, position, () => {
      open.delete(stream);
      const left = (perTenant.get(tenant) ?? 1) - 1;
      if (left > 0) perTenant.set(tenant, left);
      else perTenant.delete(tenant);
    });
    open.add(stream);
    stream.write(': events of your tenant; ids resume with Last-Event-ID\n\n');
    void run(stream, credential, admission, type);
  });

  // Stopping ends every stream at once: an open response would hold the server's close.
  app.addHook('preClose', async () => {
    for (const stream of open) stream.close();
  });
}
