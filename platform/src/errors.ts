import { GraphQLError } from 'graphql';
import type { RateDecision } from './rate-limit';
import { isReason, type Reason, SHIPPING_REFUSALS } from './reasons';

/** The error kinds of the reference (section 7) plus `rate_limited`, the one kind this project adds. */
export const ERROR_STATUS = {
  validation_failed: 400,
  unknown_projection: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  exceeds_remaining: 409,
  rate_limited: 429,
  internal: 500,
} as const;

export type ErrorKind = keyof typeof ERROR_STATUS;

export function isErrorKind(value: unknown): value is ErrorKind {
  return typeof value === 'string' && Object.hasOwn(ERROR_STATUS, value);
}

/**
 * What refines a kind for a front-end (GraphQL's `extensions.reason` and `extensions.field` only: REST,
 * MCP and the SDK answer the kind and message as before). `field` is the path in the operation's input,
 * as the REST body spells it (`items[1].sku_id`); GraphQL prefixes its argument (`input.items[1].sku_id`).
 */
export interface Refinement {
  reason?: Reason;
  field?: string;
}

/** The reason a kind implies when the thrower names none; conflict and internal imply none. */
const IMPLIED: Partial<Record<ErrorKind, Reason>> = {
  validation_failed: 'invalid_value',
  unknown_projection: 'unknown_projection',
  unauthorized: 'unauthenticated',
  forbidden: 'scope_missing',
  not_found: 'not_found',
  exceeds_remaining: 'exceeds_remaining',
  rate_limited: 'rate_limited',
};

/** An error a caller may see: its kind and message are safe to show. `details` travel as extra body fields. */
export class AppError extends Error {
  readonly reason?: Reason;
  readonly field?: string;

  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
    refinement: Refinement = {},
  ) {
    super(message);
    this.name = 'AppError';
    this.reason = refinement.reason ?? IMPLIED[kind];
    this.field = refinement.field;
  }

  get status(): number {
    return ERROR_STATUS[this.kind];
  }

  /**
   * As a GraphQL field error: the kind is `extensions.code`, then its details, reason and field. No
   * HTTP status: an execution error is part of a 200 answer (GraphQL over HTTP), beside the other fields' data.
   */
  toGraphQLError(): GraphQLError {
    const refined = { ...(this.reason ? { reason: this.reason } : {}), ...(this.field !== undefined ? { field: `input.${this.field}` } : {}) };
    return new GraphQLError(this.message, { extensions: { code: this.kind, ...this.details, ...refined } });
  }
}

/** A refusal decided by a rate limit: its HTTP answer carries that limit's headers (rateHeaders). */
export class RatedError extends AppError {
  constructor(
    kind: 'rate_limited' | 'unauthorized',
    message: string,
    readonly rate: RateDecision,
    details: Record<string, unknown> = {},
  ) {
    super(kind, message, details);
  }
}

/**
 * Refused by a limit, `rate` being its decision. The details say when to retry and which limit
 * refused (`retry_after`, `rate_limit`): what a GraphQL field error and an MCP tool result have in
 * place of headers, and what brings a subgraph's refusal back to a RateLimited (fromExtensions),
 * whose HTTP answer then carries that limit's headers.
 */
export class RateLimited extends RatedError {
  constructor(rate: RateDecision, message = `rate limit exceeded; retry after ${rate.retryAfter}s`) {
    const { limit, remaining, reset, window } = rate;
    super('rate_limited', message, rate, { retry_after: rate.retryAfter, rate_limit: { limit, remaining, reset, window } });
  }
}

/** The refusing limit's decision a RateLimited's details carry, or null when they carry none. */
function carriedRate(details: Record<string, unknown>): RateDecision | null {
  const { limit, remaining, reset, window } = (details.rate_limit ?? {}) as Record<string, unknown>;
  const retryAfter = details.retry_after;
  const counts = { retryAfter, limit, remaining, reset, window };
  if (!Object.values(counts).every((n) => Number.isSafeInteger(n) && (n as number) >= 0)) return null;
  return { allowed: false, ...(counts as Omit<RateDecision, 'allowed'>) };
}

/**
 * A subgraph's GraphQL error as the AppError it was, for the REST shim and MCP: `reason` and `field`
 * go back to the refinement, out of the details those surfaces send; except a shipping refusal's
 * `reason`, which their bodies carried before reasons existed. A limit's refusal is RateLimited again.
 */
export function fromExtensions(kind: ErrorKind, message: string, extensions: Record<string, unknown>): AppError {
  const { code: _code, request_id: _id, reason, field, ...details } = extensions;
  const rate = kind === 'rate_limited' ? carriedRate(details) : null;
  if (rate) return new RateLimited(rate, message);
  const refinement: Refinement = {
    reason: isReason(reason) ? reason : undefined,
    field: typeof field === 'string' ? field.replace(/^input\.?/, '') : undefined,
  };
  const shipping = kind === 'conflict' && (SHIPPING_REFUSALS as readonly unknown[]).includes(reason);
  return new AppError(kind, message, shipping ? { ...details, reason } : details, refinement);
}

export const validationFailed = (message: string, refinement?: Refinement) => new AppError('validation_failed', message, {}, refinement);
export const unauthorized = (message = 'a valid API key is required') => new AppError('unauthorized', message);
export const forbidden = (scope: string) => new AppError('forbidden', `missing scope ${scope}`, { scope });
/** Every conflict names its reason: the kind alone tells a front-end nothing it can act on. */
export const conflict = (message: string, refinement: Refinement & { reason: Reason }) => new AppError('conflict', message, {}, refinement);
export const notFound = (message: string, refinement?: Refinement) => new AppError('not_found', message, {}, refinement);

/**
 * Any error as an AppError. An unexpected one becomes `internal` with only the request id in its
 * message: its text may carry SQL, secrets or a stack, so it is logged, never shown.
 */
export function asAppError(error: unknown, requestId: string, log: (line: string) => void = console.error): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError && isErrorKind(error.extensions?.code)) {
    const { reason, field } = fromExtensions(error.extensions.code, error.message, error.extensions);
    return new AppError(error.extensions.code, error.message, {}, { reason, field });
  }
  log(`[${requestId}] internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new AppError('internal', `internal error (request ${requestId})`, { request_id: requestId });
}

/** A value the code knows is there (a map filled from the same list, a column its state implies): the invariant, checked. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}
