/**
 * events_pipeline scenario of `npm run bench`: whether the relay, a consumer and a webhook receiver
 * keep up with the commands that produce events.
 *
 * A receiver (an HTTP server in this process) subscribes to `iam.api_key.created`; the load is
 * `POST /v1/commands/iam.api_key.create` at BENCH_CONNECTIONS. Each created key's event goes
 * outbox → relay → pg-boss → the `webhooks` consumer (identity: records the delivery rows) → the
 * `webhook.deliver` task → the receiver. Two phases of BENCH_SECONDS each, after a warm-up:
 *   - saturated: commands as fast as they are answered (the consumer and deliveries then compete with
 *     them for the same two cores);
 *   - paced: commands at BENCH_EVENTS_RATE per second (default 250), where "keeps up" means the
 *     consumer and the receiver see the same rate, with a backlog near zero and short latency.
 * Each phase reports, next to its command rate:
 *   - consumer_events_per_s: events the `webhooks` consumer handled during the load window;
 *   - receiver_deliveries_per_s: deliveries the receiver answered 2xx during the load window;
 *   - the backlog when the load stopped (outbox pending, not yet consumed, not yet received) and the
 *     seconds until all of it was through;
 *   - end-to-end latency (event occurred_at → consumer handled / delivered_at), p50 and p99.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { httpLoad, type HttpLoad, type Measurement } from './measure';
import type { BenchContext, Scenario } from './run';

interface Receiver {
  url: string;
  /** Deliveries answered, by arrival time (ms since epoch). */
  arrivals: number[];
  /** webhook-id values seen more than once (a retry after a timeout, or a double delivery). */
  repeats: number;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const arrivals: number[] = [];
  const seen = new Set<string>();
  let repeats = 0;
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const id = String(req.headers['webhook-id'] ?? '');
      if (seen.has(id)) repeats++;
      seen.add(id);
      arrivals.push(Date.now());
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    get repeats() {
      return repeats;
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

async function command(ctx: BenchContext, name: string, input: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${ctx.target.url}/v1/commands/${name}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ctx.target.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as Record<string, unknown>;
  if (response.status !== 200) throw new Error(`${name} answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}

interface Progress {
  events: number;
  outboxPending: number;
  consumed: number;
  delivered: number;
}

const EVENT = 'iam.api_key.created';

/** Where the events after `fromSeq` are in the pipeline. */
async function progress(db: Client, fromSeq: number): Promise<Progress> {
  const { rows } = await db.query<Progress>(
    `WITH e AS (SELECT event_id, status FROM identity.outbox_event WHERE seq > $1 AND type = $2)
     SELECT (SELECT count(*) FROM e)::int AS events,
            (SELECT count(*) FROM e WHERE status = 'pending')::int AS "outboxPending",
            (SELECT count(*) FROM identity.consumer_delivery c JOIN e USING (event_id) WHERE c.consumer = 'webhooks' AND c.outcome = 'handled')::int AS consumed,
            (SELECT count(*) FROM identity.webhook_delivery d JOIN e USING (event_id) WHERE d.status = 'delivered')::int AS delivered`,
    [fromSeq, EVENT],
  );
  return rows[0];
}

async function drain(
  ctx: BenchContext,
  db: Client,
  fromSeq: number,
  received: () => number,
  limitMs: number,
): Promise<{ seconds: number | null; last: Progress }> {
  const started = Date.now();
  let reported = started;
  for (;;) {
    const now = await progress(db, fromSeq);
    if (Date.now() - reported > 5000) {
      reported = Date.now();
      ctx.log(`draining: ${JSON.stringify({ ...now, received: received() })}`);
    }
    const through = now.outboxPending === 0 && now.consumed === now.events && now.delivered === now.events && received() >= now.events;
    if (through) return { seconds: Math.round((Date.now() - started) / 100) / 10, last: now };
    if (Date.now() - started > limitMs) return { seconds: null, last: now };
    await new Promise((ok) => setTimeout(ok, 200));
  }
}

interface Phase {
  commands_per_s: number;
  events: number;
  consumer_events_per_s: number;
  receiver_deliveries_per_s: number;
  backlog_at_end: { outbox_pending: number; not_consumed: number; not_received: number };
  drain_s: number | null;
  latency_ms: Record<string, number | null>;
}

const lastSeq = async (db: Client) => Number((await db.query<{ seq: string }>('SELECT coalesce(max(seq), 0) AS seq FROM identity.outbox_event')).rows[0].seq);
/** Commands still in flight when a load ends commit a moment later: wait for them before counting. */
const settle = () => new Promise((ok) => setTimeout(ok, 1000));

/** One load (as fast as answers come, or paced at `rate`), then until everything it produced is through. */
async function phase(
  ctx: BenchContext,
  db: Client,
  receiver: Receiver,
  load: HttpLoad,
  seconds: number,
  rate?: number,
): Promise<{ measured: Measurement; phase: Phase }> {
  const fromSeq = await lastSeq(db);
  const receivedBefore = receiver.arrivals.length;
  const loadStarted = Date.now();
  const measured = await httpLoad(load, { connections: ctx.config.connections, watched: ctx.watched, warmupSeconds: 0, seconds, rate });
  const loadEnded = Date.now();
  const atEnd = await progress(db, fromSeq);
  const receivedDuringLoad = receiver.arrivals.slice(receivedBefore).filter((t) => t <= loadEnded).length;
  await settle();
  const drained = await drain(ctx, db, fromSeq, () => receiver.arrivals.length - receivedBefore, 300_000);
  const { rows } = await db.query<{ consumer_p50: number; consumer_p99: number; delivered_p50: number; delivered_p99: number; consumed_during_load: number }>(
    `WITH e AS (SELECT event_id, occurred_at FROM identity.outbox_event WHERE seq > $1 AND type = $2),
          c AS (SELECT extract(epoch FROM c.at - e.occurred_at) * 1000 AS ms, c.at FROM identity.consumer_delivery c JOIN e USING (event_id) WHERE c.consumer = 'webhooks' AND c.outcome = 'handled'),
          d AS (SELECT extract(epoch FROM d.delivered_at - e.occurred_at) * 1000 AS ms FROM identity.webhook_delivery d JOIN e USING (event_id) WHERE d.status = 'delivered')
     SELECT (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int FROM c) AS consumer_p50,
            (SELECT round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms))::int FROM c) AS consumer_p99,
            (SELECT round(percentile_cont(0.5) WITHIN GROUP (ORDER BY ms))::int FROM d) AS delivered_p50,
            (SELECT round(percentile_cont(0.99) WITHIN GROUP (ORDER BY ms))::int FROM d) AS delivered_p99,
            (SELECT count(*) FROM c WHERE c.at <= to_timestamp($3 / 1000.0))::int AS consumed_during_load`,
    [fromSeq, EVENT, loadEnded],
  );
  const [latency] = rows;
  const window = (loadEnded - loadStarted) / 1000;
  const perSecond = (n: number) => Math.round((n / window) * 10) / 10;
  return {
    measured,
    phase: {
      commands_per_s: measured.rps,
      events: drained.last.events,
      consumer_events_per_s: perSecond(latency.consumed_during_load),
      receiver_deliveries_per_s: perSecond(receivedDuringLoad),
      backlog_at_end: { outbox_pending: atEnd.outboxPending, not_consumed: atEnd.events - atEnd.consumed, not_received: atEnd.events - receivedDuringLoad },
      drain_s: drained.seconds,
      latency_ms: {
        consumer_p50: latency.consumer_p50,
        consumer_p99: latency.consumer_p99,
        delivered_p50: latency.delivered_p50,
        delivered_p99: latency.delivered_p99,
      },
    },
  };
}

/** The paced phase's command rate: BENCH_EVENTS_RATE, default 250 commands/s. */
const PACED_RATE = Number(process.env.BENCH_EVENTS_RATE) > 0 ? Number(process.env.BENCH_EVENTS_RATE) : 250;

export const eventsPipeline: Scenario = {
  name: 'events_pipeline',
  description:
    'iam.api_key.create over REST with one consumer (webhooks dispatch) and one webhook receiver subscribed to its event: as fast as the commands go (saturated), then paced (BENCH_EVENTS_RATE/s)',
  async run(ctx) {
    const receiver = await startReceiver();
    const db = new Client({ connectionString: ctx.databaseUrl });
    await db.connect();
    let subscriptionId: string | undefined;
    try {
      subscriptionId = String(
        (await command(ctx, 'webhook.subscription.create', { url: receiver.url, event_types: [EVENT], description: 'bench' })).subscription_id,
      );
      const load: HttpLoad = {
        url: `${ctx.target.url}/v1/commands/iam.api_key.create`,
        method: 'POST',
        headers: { authorization: `Bearer ${ctx.target.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench', scopes: ['audit.read'] }),
      };
      if (ctx.config.warmupSeconds > 0) {
        const from = await lastSeq(db);
        await httpLoad(load, { connections: ctx.config.connections, watched: ctx.watched, warmupSeconds: 0, seconds: ctx.config.warmupSeconds });
        await settle();
        await drain(ctx, db, from, () => receiver.arrivals.length, 300_000);
      }
      const saturated = await phase(ctx, db, receiver, load, ctx.config.seconds);
      const paced = await phase(ctx, db, receiver, load, ctx.config.seconds, PACED_RATE);
      return {
        ...saturated.measured,
        extra: { saturated: saturated.phase, [`paced_${PACED_RATE}_per_s`]: paced.phase, repeated_deliveries: receiver.repeats },
      };
    } finally {
      if (subscriptionId)
        await command(ctx, 'webhook.subscription.delete', { subscription_id: subscriptionId }).catch((error: Error) =>
          ctx.log(`deleting the bench subscription: ${error.message}`),
        );
      await db.end();
      await receiver.close();
    }
  },
};
