import type { ApolloServer } from '@apollo/server';
import { AppError, fromExtensions, isErrorKind, type TraceHeaders } from '@backoffice/platform';
import type { Admission } from './admission';
import type { GatewayRequestContext } from './gateway';

/**
 * Runs a fixed document through the gateway (the same pipeline as /graphql, with its cached query
 * plans) and returns `data`, or throws the first error as the reference's kind.
 */
export async function executeThroughGateway(
  apollo: ApolloServer<GatewayRequestContext>,
  query: string,
  variables: Record<string, unknown>,
  admission: Admission,
  refused: GatewayRequestContext['refused'],
  /** The caller's trace context, for subgraphs in other processes. */
  trace?: TraceHeaders,
): Promise<Record<string, unknown>> {
  const response = await apollo.executeOperation(
    { query, variables },
    // The shim's own documents are one operation each, already paid for.
    { contextValue: { call: admission.call, signed: admission.signed, refused, charge: async () => undefined, trace, ownDocument: true } },
  );
  if (response.body.kind !== 'single') throw new AppError('internal', `unexpected incremental response (request ${admission.call.request_id})`);
  const { data, errors } = response.body.singleResult;
  if (errors?.length) {
    const extensions = (errors[0].extensions ?? {}) as Record<string, unknown>;
    throw fromExtensions(isErrorKind(extensions.code) ? extensions.code : 'internal', errors[0].message, extensions);
  }
  return (data ?? {}) as Record<string, unknown>;
}
