// Free of the DOM: test/admin-documents.test.ts runs these exchanges in Node.
import { type CombinedError, type Exchange, fetchExchange, mapExchange } from '@urql/core';

/** Whether the gateway refused the request for want of a valid session (401: none, expired, or signed out elsewhere). */
export function isUnauthenticated(error: CombinedError): boolean {
  return error.response?.status === 401 || error.graphQLErrors.some((e) => e.extensions?.code === 'unauthorized');
}

/**
 * What a request goes through. No `cacheExchange`: it rewrites each document (adding `__typename`),
 * and the text sent must stay the trusted documents' manifest text (src/graphql/trusted.ts); each
 * screen asks the network (urql still shares one request among identical ones in flight).
 * test/admin-documents.test.ts sends every document through these.
 */
export function exchanges(onUnauthenticated: () => void): Exchange[] {
  return [
    mapExchange({
      onError(error) {
        if (isUnauthenticated(error)) onUnauthenticated();
      },
    }),
    fetchExchange,
  ];
}
