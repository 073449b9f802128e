import { Client, type CombinedError, cacheExchange, fetchExchange, mapExchange } from 'urql';

/** Whether the gateway refused the request for want of a valid session (401: none, expired, or signed out elsewhere). */
export function isUnauthenticated(error: CombinedError): boolean {
  return error.response?.status === 401 || error.graphQLErrors.some((e) => e.extensions?.code === 'unauthorized');
}

/**
 * The GraphQL client of the page: POST /graphql on the page's own origin, authenticated by the HttpOnly
 * session cookie the browser adds (`credentials: 'same-origin'`; the page never holds the token). A
 * request refused as unauthenticated calls `onUnauthenticated` (the app sends the operator to sign in).
 */
export function createClient(onUnauthenticated: () => void): Client {
  return new Client({
    url: `${window.location.origin}/graphql`,
    // Documents are sent as text (never a documentId alone, which only a gateway with TRUSTED_DOCUMENTS knows).
    preferGetMethod: false,
    fetchOptions: { credentials: 'same-origin', headers: { accept: 'application/graphql-response+json, application/json' } },
    requestPolicy: 'cache-and-network',
    exchanges: [
      cacheExchange,
      mapExchange({
        onError(error) {
          if (isUnauthenticated(error)) onUnauthenticated();
        },
      }),
      fetchExchange,
    ],
  });
}
