import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { exposeDefaultMetrics, registry } from './metrics';
import { serverSpanOf, tracingEnabled } from './tracing';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether the Authorization header is `Bearer <expected>`; compared in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, expected: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), digest(expected)) && match !== null;
}

/**
 * `GET /metrics` in Prometheus's text format. Public unless METRICS_TOKEN is set (read on every
 * scrape); then it takes `Authorization: Bearer <METRICS_TOKEN>` and answers anything else 401 with
 * the documented error body.
 */
export function registerMetricsEndpoint(app: FastifyInstance, token: () => string | undefined = () => process.env.METRICS_TOKEN || undefined): void {
  exposeDefaultMetrics();
  app.get('/metrics', async (request, reply) => {
    const expected = token();
    if (expected && !bearerMatches(request.headers.authorization, expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: { kind: 'unauthorized', message: 'the metrics endpoint requires its bearer token (METRICS_TOKEN)' } });
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}

/** Names each request's span after its route (`POST /graphql`), never its raw path; unknown routes are `unknown`. */
export function nameSpansByRoute(app: FastifyInstance): void {
  if (!tracingEnabled()) return;
  app.addHook('onRequest', (request, _reply, done) => {
    serverSpanOf(request.raw)?.updateName(`${request.method} ${request.routeOptions.url ?? 'unknown'}`);
    done();
  });
}
