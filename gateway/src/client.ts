import type { ErrorKind } from '@backoffice/platform';
import { SURFACE_OPERATIONS } from './subgraphs';

export class BackofficeError extends Error {
  constructor(
    readonly status: number,
    readonly kind: ErrorKind | string,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

/** `client.call('<operation name>', input)` over the REST face: commands POST, reads GET. */
export class BackofficeClient {
  constructor(private readonly options: { baseUrl: string; token?: string }) {}

  async call(name: string, input: Record<string, unknown> = {}): Promise<unknown> {
    const surface = SURFACE_OPERATIONS.get(name);
    // A read has a path below /v1/read; anything else (a command, or an unknown name the server will refuse) is POSTed.
    const restPath = surface?.kind === 'merged' ? surface.read.restPath : surface?.operation.kind === 'read' ? surface.operation.restPath : undefined;
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    let response: Response;
    if (!restPath) {
      headers['content-type'] = 'application/json';
      response = await fetch(`${this.options.baseUrl}/v1/commands/${name}`, { method: 'POST', headers, body: JSON.stringify(input) });
    } else {
      const query = new URLSearchParams(Object.entries(input).map(([k, v]): [string, string] => [k, String(v)]));
      response = await fetch(`${this.options.baseUrl}/v1/read${restPath}${query.size ? `?${query}` : ''}`, { headers });
    }
    const body = (await response.json()) as { error?: { kind: string; message: string } };
    if (!response.ok) throw new BackofficeError(response.status, body.error?.kind ?? 'internal', body.error?.message ?? response.statusText, body);
    return body;
  }
}
