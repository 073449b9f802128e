import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import type { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import type { BasicTracerProvider, SpanExporter } from '@opentelemetry/sdk-trace-base';

export { SpanKind } from '@opentelemetry/api';

/**
 * Tracing is on when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, or
 * when a test hands an exporter to `startTracing`. Only then is an SDK, a context manager
 * (AsyncLocalStorage) and the W3C propagator registered, and spans made: request, subgraph fetch and
 * SQL statement. Off, the one thing done is to pass a caller's `traceparent`/`tracestate` on to
 * subgraphs in other processes as it came (`TraceHeaders`), so a trace still continues there.
 */
let provider: BasicTracerProvider | null = null;
let contextManager: AsyncLocalStorageContextManager | null = null;

export function tracingEnabled(): boolean {
  return provider !== null;
}

export interface TracingSettings {
  /** Where spans go; default: the OTLP HTTP exporter (configured by the OTEL_EXPORTER_OTLP_* variables). */
  exporter?: SpanExporter;
  /** `service.name` of the spans (OTEL_SERVICE_NAME wins). */
  serviceName?: string;
}

/** Starts tracing if it is configured (see above); idempotent. Resolves whether it is on. */
export function startTracing(settings: TracingSettings = {}): boolean {
  if (provider) return true;
  const endpoint = process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (!settings.exporter && !endpoint) return false;
  // Loaded only now: the SDK and the exporter are slow to load and not needed when off (docs/decisions/logging-and-tracing.md).
  const sdk = require('@opentelemetry/sdk-trace-base') as typeof import('@opentelemetry/sdk-trace-base');
  const { resourceFromAttributes } = require('@opentelemetry/resources') as typeof import('@opentelemetry/resources');
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof import('@opentelemetry/context-async-hooks');
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof import('@opentelemetry/core');
  // A test's exporter gets each span at once; the OTLP exporter (OTEL_EXPORTER_OTLP_* variables) gets them in batches.
  const processor = settings.exporter
    ? new sdk.SimpleSpanProcessor(settings.exporter)
    : new sdk.BatchSpanProcessor(
        new (require('@opentelemetry/exporter-trace-otlp-http') as typeof import('@opentelemetry/exporter-trace-otlp-http')).OTLPTraceExporter(),
      );
  provider = new sdk.BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': process.env.OTEL_SERVICE_NAME || settings.serviceName || 'backoffice' }),
    spanProcessors: [processor],
  });
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  return true;
}

/** Flushes and stops tracing (at exit; tests between systems). */
export async function stopTracing(): Promise<void> {
  if (!provider) return;
  const stopping = provider;
  provider = null;
  await stopping.shutdown();
  contextManager?.disable();
  contextManager = null;
  trace.disable();
  context.disable();
  propagation.disable();
}

const tracer = () => trace.getTracer('backoffice');

/** Runs `work` in a span of its own (child of the active one); without tracing, just runs it. */
export function inSpan<T>(name: string, kind: SpanKind, attributes: Attributes, work: () => Promise<T>): Promise<T> {
  if (!provider) return work();
  return tracer().startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.recordException(error as Error);
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}

/** A caller's W3C trace context, as it came (well-formed only). */
export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

const TRACEPARENT = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;
const TRACESTATE = /^[\x20-\x7e]{1,512}$/;

/** The request's `traceparent` (and `tracestate`), or undefined when it has none or a malformed one. */
export function traceHeadersOf(headers: IncomingHttpHeaders): TraceHeaders | undefined {
  const parent = headers.traceparent;
  if (typeof parent !== 'string' || !TRACEPARENT.test(parent)) return undefined;
  const state = headers.tracestate;
  return typeof state === 'string' && TRACESTATE.test(state) ? { traceparent: parent, tracestate: state } : { traceparent: parent };
}

/**
 * Writes the trace context onto an outgoing request's headers: the active span's when tracing is on,
 * else the caller's own (`passOn`), so the next process continues the caller's trace.
 */
export function injectTrace(headers: { set(name: string, value: string): unknown }, passOn?: TraceHeaders): void {
  if (provider) {
    propagation.inject(context.active(), headers, { set: (carrier, key, value) => carrier.set(key, value) });
  } else if (passOn) {
    headers.set('traceparent', passOn.traceparent);
    if (passOn.tracestate) headers.set('tracestate', passOn.tracestate);
  }
}

const SERVER_SPAN = Symbol('backoffice.serverSpan');

/** The span of an HTTP request being served (to name it after its route, add what the handler learnt). */
export function serverSpanOf(request: IncomingMessage): Span | undefined {
  return (request as IncomingMessage & { [SERVER_SPAN]?: Span })[SERVER_SPAN];
}

/**
 * With tracing on, every request the server takes runs in a span continuing the caller's
 * `traceparent`: the span is active for all the request's work (its request and response emitters
 * are bound to it, so a body parsed on a later event keeps it), and ends when the response closes.
 * A framework's route hooks may rename it and add attributes through `serverSpanOf`.
 * Without tracing the server is left as it is.
 */
export function traceHttpServer(server: Server): void {
  if (!provider) return;
  const handlers = server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  if (handlers.length !== 1) throw new Error(`traceHttpServer expects one request listener, found ${handlers.length}`);
  const [handler] = handlers;
  server.removeListener('request', handler);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!provider) return handler.call(server, req, res);
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const path = (req.url ?? '/').split('?')[0];
    const span = tracer().startSpan(
      req.method ?? 'HTTP',
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '', 'url.path': path.slice(0, 256) } },
      parent,
    );
    (req as IncomingMessage & { [SERVER_SPAN]?: Span })[SERVER_SPAN] = span;
    res.once('close', () => {
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    const active = trace.setSpan(parent, span);
    context.bind(active, req);
    context.bind(active, res);
    context.with(active, () => handler.call(server, req, res));
  });
}
