import { GraphQLError } from 'graphql';

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

/** An error a caller may see: its kind and message are safe to show. `details` travel as extra body fields. */
export class AppError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.kind];
  }

  /**
   * As a GraphQL field error: the kind is `extensions.code`. No HTTP status: an execution error is
   * part of a 200 answer (GraphQL over HTTP), beside the other fields' data.
   */
  toGraphQLError(): GraphQLError {
    return new GraphQLError(this.message, { extensions: { code: this.kind, ...this.details } });
  }
}

export const validationFailed = (message: string) => new AppError('validation_failed', message);
export const unauthorized = (message = 'a valid API key is required') => new AppError('unauthorized', message);
export const forbidden = (scope: string) => new AppError('forbidden', `missing scope ${scope}`, { scope });
export const conflict = (message: string) => new AppError('conflict', message);
export const notFound = (message: string) => new AppError('not_found', message);

/**
 * Any error as an AppError. An unexpected one becomes `internal` with only the request id in its
 * message: its text may carry SQL, secrets or a stack, so it is logged, never shown.
 */
export function asAppError(error: unknown, requestId: string, log: (line: string) => void = console.error): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof GraphQLError && isErrorKind(error.extensions?.code)) {
    return new AppError(error.extensions.code, error.message);
  }
  log(`[${requestId}] internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  return new AppError('internal', `internal error (request ${requestId})`, { request_id: requestId });
}

/** A value the code knows is there (a map filled from the same list, a column its state implies): the invariant, checked. */
export function present<T>(value: T | null | undefined, what: string): T {
  if (value === null || value === undefined) throw new Error(`${what} is missing`);
  return value;
}
