import { OPERATIONS, type OperationName, type Operations, type OperationRoute } from './operations.js';

/** A refusal of the back office (its `{"error":{"kind","message",…}}`), or `unreachable` when no answer came. */
export class BackofficeError extends Error {
  override readonly name = 'BackofficeError';
  constructor(
    /** The reference's error kind (`validation_failed`, `conflict`, …), or `unreachable`. */
    readonly kind: string,
    message: string,
    /** The HTTP status; 0 when no answer came. */
    readonly status: number,
    /** The server's `x-request-id` (give it when reporting a problem). */
    readonly requestId: string | null,
    /** Fields of the error body beyond kind and message (`scope`, `requested`, `remaining`, …). */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export interface ClientOptions {
  /** Where the back office answers, e.g. `http://127.0.0.1:4000`. */
  baseUrl: string;
  /** An API key or operator session token, sent as `Authorization: Bearer`. */
  token?: string;
  /** Retries after a 429 or, for reads and idempotent commands, a network fault or a 502/503/504 (default 3). */
  retries?: number;
  /** The first retry's delay in ms, doubled each time with jitter, at most 10 s (default 250). */
  retryBaseMs?: number;
  /** Another fetch (tests, proxies, older runtimes). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Aborts the call, retries and waits included. */
  signal?: AbortSignal;
}

const RETRY_MAX_MS = 10_000;
/** A Retry-After longer than this is not waited for: the error is thrown. */
const RETRY_AFTER_MAX_MS = 60_000;

/**
 * `client.call('order.mark_paid', { order_id })`: typed by operation name, in input and result,
 * over the REST face (commands `POST /v1/commands/<name>`, reads `GET /v1/read/...`).
 */
export class BackofficeClient {
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  async call<N extends OperationName>(name: N, input: Operations[N]['input'], options: CallOptions = {}): Promise<Operations[N]['result']> {
    // Own entries only: an untyped caller's `toString` is no operation.
    const route: OperationRoute | undefined = Object.hasOwn(OPERATIONS, name) ? OPERATIONS[name] : undefined;
    if (!route) throw new BackofficeError('validation_failed', `no operation ${String(name)}`, 0, null);
    const request = this.requestOf(name, route, (input ?? {}) as Record<string, unknown>);
    // Retrying is safe when the server refused before running (429), or when running twice changes nothing.
    const repeatable = route.kind === 'read' || route.idempotent === true;
    const retries = this.options.retries ?? 3;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(request.url, { ...request.init, signal: options.signal });
      } catch (error) {
        if (options.signal?.aborted) throw options.signal.reason ?? error;
        if (repeatable && attempt < retries) {
          await this.pause(this.backoff(attempt), options.signal);
          continue;
        }
        throw new BackofficeError('unreachable', `cannot reach the back office at ${this.baseUrl}: ${(error as Error).message}`, 0, null);
      }
      if (response.ok) return (await response.json()) as Operations[N]['result'];
      const wait = this.retryWait(response, attempt, repeatable, retries);
      if (wait === null) throw await errorOf(response);
      await response.body?.cancel().catch(() => undefined);
      await this.pause(wait, options.signal);
    }
  }

  private requestOf(name: string, route: OperationRoute, input: Record<string, unknown>): { url: string; init: RequestInit } {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (this.options.token) headers.authorization = `Bearer ${this.options.token}`;
    if (route.kind === 'command') {
      headers['content-type'] = 'application/json';
      return { url: `${this.baseUrl}/v1/commands/${name}`, init: { method: 'POST', headers, body: JSON.stringify(input) } };
    }
    const query = queryOf(route, input);
    return { url: `${this.baseUrl}/v1/read${route.path}${query ? `?${query}` : ''}`, init: { method: 'GET', headers } };
  }

  /** How long to wait before the next attempt, or null when the answer stands. */
  private retryWait(response: Response, attempt: number, repeatable: boolean, retries: number): number | null {
    if (attempt >= retries) return null;
    if (response.status === 429) {
      const after = retryAfterMs(response.headers.get('retry-after'));
      if (after === null) return this.backoff(attempt);
      return after <= RETRY_AFTER_MAX_MS ? after : null;
    }
    return repeatable && [502, 503, 504].includes(response.status) ? this.backoff(attempt) : null;
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min((this.options.retryBaseMs ?? 250) * 2 ** attempt, RETRY_MAX_MS);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }

  private pause(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', aborted);
        resolve();
      }, ms);
      const aborted = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', aborted, { once: true });
    });
  }
}

/**
 * A read's input as its query string, as the server reads it: a list comma-separated, a family
 * field (`options: [{ name: 'color', value: 'red' }]`) as `option.color=red`, its item fields named by
 * `familyKeys` when not `name` and `value`, the rest as text.
 */
export function queryOf(route: OperationRoute, input: Record<string, unknown>): string {
  const query = new URLSearchParams();
  for (const [field, value] of Object.entries(input)) {
    if (value === undefined || value === null) continue;
    const prefix = route.families?.[field];
    if (prefix !== undefined) {
      const keys = route.familyKeys?.[field] ?? { name: 'name', value: 'value' };
      for (const item of value as Array<Record<string, unknown>>) query.append(`${prefix}${item[keys.name]}`, String(item[keys.value]));
    } else if (Array.isArray(value)) {
      if (value.length) query.append(field, value.map(String).join(','));
    } else if (typeof value === 'object') {
      throw new BackofficeError('validation_failed', `${field}: a read takes no object in its query`, 0, null);
    } else {
      query.append(field, String(value));
    }
  }
  return query.toString();
}

/** Retry-After in seconds or as an HTTP date; null when absent or unreadable. */
function retryAfterMs(value: string | null): number | null {
  if (!value) return null;
  if (/^\d+$/.test(value.trim())) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

async function errorOf(response: Response): Promise<BackofficeError> {
  const requestId = response.headers.get('x-request-id');
  const body = (await response.json().catch(() => null)) as { error?: { kind?: string; message?: string } & Record<string, unknown> } | null;
  const { kind, message, ...details } = body?.error ?? {};
  return new BackofficeError(kind ?? 'internal', message ?? `${response.status} ${response.statusText}`, response.status, requestId, details);
}
