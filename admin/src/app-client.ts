import { useSyncExternalStore } from 'react';
import { Client } from '@urql/core';
import { exchanges } from './graphql/client';

/**
 * The GraphQL client of the page: POST /graphql on the page's own origin, authenticated by the HttpOnly
 * session cookie the browser adds (`credentials: 'same-origin'`; the page never holds the token). A
 * request refused as unauthenticated calls `onUnauthenticated` (the app sends the operator to sign in).
 */
function createClient(onUnauthenticated: () => void): Client {
  return new Client({
    url: `${window.location.origin}/graphql`,
    // Documents are sent as text in a POST (never a documentId alone, which only a gateway with TRUSTED_DOCUMENTS knows).
    preferGetMethod: false,
    fetchOptions: { credentials: 'same-origin', headers: { accept: 'application/graphql-response+json, application/json' } },
    requestPolicy: 'network-only',
    exchanges: exchanges(onUnauthenticated),
  });
}

/**
 * The page's GraphQL client, made anew at each sign-in so that nothing cached for one
 * session shows in the next. A request refused as unauthenticated calls the handler main.tsx sets
 * (to the sign-in screen).
 */
let unauthenticated: () => void = () => {};
const make = () => createClient(() => unauthenticated());
let client = make();
const listeners = new Set<() => void>();

export function onUnauthenticated(handler: () => void): void {
  unauthenticated = handler;
}

export function resetClient(): void {
  client = make();
  for (const listener of listeners) listener();
}

export function useClient(): Client {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => client,
  );
}
