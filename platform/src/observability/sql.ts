import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Pool, PoolClient } from 'pg';
import { tracingEnabled } from './tracing';

/**
 * SQL spans, by a small wrapper around one pg pool rather than `@opentelemetry/instrumentation-pg`:
 * that package patches `pg` through require hooks, which must be registered before anything
 * requires `pg` (a preload flag for tsx) and never run under jest, whose module loader bypasses
 * them; its current releases also need Node 22. The wrapper sits on the pool a subgraph's
 * DataSource already owns, so every statement — TypeORM's, the hot paths' named statements, the
 * relay's — passes through it, under tsx, jest and node alike.
 *
 * A statement gets a span only inside a traced piece of work still open (a request being served):
 * the relay's polling and the metrics' outbox query make no root spans of their own, and work a
 * request left behind (an audit batch written a few milliseconds after its answer, a relay woken by
 * its commit) does not hang spans on a request that has ended. Parameter values are never recorded,
 * only the statement's text (ours, with `$n` placeholders), cut at 2,000 characters.
 */
const TRACED = Symbol('backoffice.tracedSql');
const MAX_TEXT = 2000;

type Callback = (error: Error | undefined, ...rest: unknown[]) => unknown;
type Traced<T> = T & { [TRACED]?: true };

export function traceSql(pool: Pool, schema: string): void {
  const tracedPool = pool as Traced<Pool>;
  if (!tracingEnabled() || tracedPool[TRACED]) return;
  tracedPool[TRACED] = true;
  const connect = pool.connect;
  // A client handed out later (once another is released) would call back in the releaser's context:
  // bind the callback to the asker's, so the statements it then runs belong to the right trace.
  pool.connect = function (this: Pool, callback?: Callback) {
    if (typeof callback === 'function') {
      const bound = context.bind(context.active(), callback);
      return (connect as (cb: Callback) => void).call(this, (error, client, ...rest) => {
        if (client) traceClient(client as PoolClient, schema);
        return bound(error, client, ...rest);
      });
    }
    return (connect as () => Promise<PoolClient>).call(this).then((client) => traceClient(client, schema));
  } as Pool['connect'];
}

function traceClient(client: PoolClient, schema: string): PoolClient {
  const traced = client as Traced<PoolClient>;
  if (traced[TRACED]) return client;
  traced[TRACED] = true;
  const query = client.query as (...args: unknown[]) => unknown;
  (client as { query: unknown }).query = function (this: PoolClient, ...args: unknown[]) {
    const active = context.active();
    const first = args[0] as { text?: string; submit?: unknown; callback?: Callback } | string | undefined;
    // Streams and cursors (submittables) go through untraced, as does anything outside a trace.
    if (!tracingEnabled() || !trace.getSpan(active)?.isRecording() || (typeof first === 'object' && first !== null && typeof first.submit === 'function')) {
      return query.apply(this, args);
    }
    const text = typeof first === 'string' ? first : (first?.text ?? '');
    const operation = /^\s*([A-Za-z]+)/.exec(text)?.[1]?.toUpperCase() ?? 'SQL';
    const span = tracer().startSpan(
      `${operation} ${schema}`,
      {
        kind: SpanKind.CLIENT,
        attributes: { 'db.system.name': 'postgresql', 'db.namespace': schema, 'db.operation.name': operation, 'db.query.text': text.slice(0, MAX_TEXT) },
      },
      active,
    );
    const last = args.length - 1;
    if (typeof args[last] === 'function') {
      const callback = args[last] as Callback;
      args[last] = function (this: unknown, error: Error | undefined, ...rest: unknown[]) {
        finish(span, error);
        return callback.call(this, error, ...rest);
      };
      return query.apply(this, args);
    }
    if (typeof first === 'object' && first !== null && typeof first.callback === 'function') {
      const callback = first.callback;
      args[0] = {
        ...first,
        callback: (error: Error | undefined, ...rest: unknown[]) => {
          finish(span, error);
          return callback(error, ...rest);
        },
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args) as Promise<unknown> | undefined;
    if (result && typeof result.then === 'function')
      result.then(
        () => finish(span),
        (error: Error) => finish(span, error),
      );
    else finish(span);
    return result;
  };
  return client;
}

const tracer = () => trace.getTracer('backoffice');

function finish(span: Span, error?: Error): void {
  if (error) {
    span.recordException(error);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}
