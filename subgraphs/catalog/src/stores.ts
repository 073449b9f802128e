import { INTERNAL_SECRET_HEADER, internalToken, type OperationCall } from '@backoffice/platform';

/** A store as the catalog needs it: which tenant a public read by `store` is for. */
export interface StoreRef {
  store_id: string;
  tenant_id: string;
}

/** How the catalog learns about stores, which identity owns: asked, never read from identity's tables. */
export interface StoreDirectory {
  resolve(ref: string): Promise<StoreRef | null>;
}

/**
 * Remembers answers for a while: a store never changes tenant, so a request costs at most one lookup,
 * and most cost none. Unknown stores are remembered briefly, so a typo cannot hammer identity.
 */
export function cachedDirectory(lookup: (ref: string) => Promise<StoreRef | null>, ttlMs = 30_000, missTtlMs = 2_000): StoreDirectory {
  const cache = new Map<string, { value: StoreRef | null; until: number }>();
  return {
    async resolve(ref) {
      const now = Date.now();
      const hit = cache.get(ref);
      if (hit && hit.until > now) return hit.value;
      const value = await lookup(ref);
      if (cache.size > 10_000) cache.clear();
      cache.set(ref, { value, until: now + (value ? ttlMs : missTtlMs) });
      return value;
    },
  };
}

/** Identity in another process, through its internal endpoint. */
export function remoteDirectory(identityUrl: string, secret: string): StoreDirectory {
  return cachedDirectory(async (ref) => {
    const response = await fetch(`${identityUrl}/internal/store`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [INTERNAL_SECRET_HEADER]: internalToken(secret) },
      body: JSON.stringify({ ref }),
    });
    if (!response.ok) throw new Error(`identity /internal/store answered ${response.status}`);
    return ((await response.json()) as { store: StoreRef | null }).store;
  });
}

export function storeDirectory(call: Pick<OperationCall<unknown>, 'services'>): StoreDirectory {
  const directory = call.services.stores as StoreDirectory | undefined;
  if (!directory) throw new Error('the catalog was started without a store directory');
  return directory;
}
