import { ACTOR_CONTEXT_HEADER, injectTrace, inSpan, SpanKind, type TraceHeaders } from '@backoffice/platform';
import { Pool } from 'undici';

/** Bounds of the lane's calls to a subgraph in another process. */
export const REMOTE_LIMITS = { connections: 128, answerBytes: 32 * 1024 * 1024, timeoutMs: 30_000 };

/** What a subgraph answered: its status and its body, as text. */
export interface RemoteAnswer {
  status: number;
  text: string;
}

/**
 * A subgraph in another process as the /graphql lane calls it: a keep-alive pool of HTTP/1.1
 * connections (undici), a fetch per request with the gateway's signed context and the caller's
 * trace, the answer read as text (at most 32 MiB) so that it can go on to the client as it is.
 * The gateway's own data source (`remoteDataSource`) stays the path of everything else.
 */
export class RemoteSubgraph {
  private readonly pool: Pool;
  private readonly path: string;

  constructor(
    readonly name: string,
    private readonly url: string,
  ) {
    const at = new URL(url);
    this.path = at.pathname;
    this.pool = new Pool(at.origin, { connections: REMOTE_LIMITS.connections, headersTimeout: REMOTE_LIMITS.timeoutMs, bodyTimeout: REMOTE_LIMITS.timeoutMs });
  }

  fetch(body: string, signed: string, trace: TraceHeaders | undefined, operationName: string | undefined): Promise<RemoteAnswer> {
    return inSpan(
      `subgraph ${this.name}`,
      SpanKind.CLIENT,
      { 'backoffice.subgraph': this.name, 'graphql.operation.name': operationName ?? '', 'url.full': this.url },
      async () => {
        const headers = new Map<string, string>([
          ['content-type', 'application/json'],
          [ACTOR_CONTEXT_HEADER, signed],
        ]);
        injectTrace(headers, trace);
        const answer = await this.pool.request({ method: 'POST', path: this.path, headers: Object.fromEntries(headers), body });
        const chunks: Buffer[] = [];
        let size = 0;
        for await (const chunk of answer.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > REMOTE_LIMITS.answerBytes) {
            answer.body.destroy();
            throw new Error(`subgraph ${this.name} answered more than ${REMOTE_LIMITS.answerBytes} bytes`);
          }
          chunks.push(chunk);
        }
        return { status: answer.statusCode, text: Buffer.concat(chunks, size).toString('utf8') };
      },
    );
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
