import { useSyncExternalStore } from 'react';
import type { Client } from 'urql';
import { createClient } from './graphql/client';

/**
 * The page's GraphQL client, made anew at each sign-in and sign-out so that nothing cached for one
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
