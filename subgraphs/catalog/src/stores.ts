import { INTERNAL_SECRET_HEADER, internalToken } from '@backoffice/platform';
import { LRUCache } from 'lru-cache';

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
  // Bounded in entries and bytes (refs are at most 200 characters, so 10,000 entries stay under 4 MiB).
  const cache = new LRUCache<string, { value: StoreRef | null }>({
    max: 10_000,
    maxSize: 4 * 1024 * 1024,
    sizeCalculation: (_entry, ref) => 2 * ref.length + 128,
    ttl: ttlMs,
  });
  return {
    async resolve(ref) {
      const hit = cache.get(ref);
      if (hit) return hit.value;
      const value = await lookup(ref);
      cache.set(ref, { value }, { ttl: value ? ttlMs : missTtlMs });
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
