import { ChannelListener, conflict, internalCaller } from '@backoffice/platform';
import { LRUCache } from 'lru-cache';
import type { ClientConfig } from 'pg';

// What identity serves about stores: the directory (which tenant a store is, by id, handle or host) and a store's mail sender.

/** Where a store belongs: what other subgraphs need to serve a public read by `store`. */
export interface StoreRef {
  store_id: string;
  tenant_id: string;
  handle: string;
}

/*
 * Hosts. A store's `host` is where the storefront serves it; a host belongs to one store across
 * every tenant (the unique index on identity.store.host). It is kept normalized: lower case, no
 * port, no trailing dot. The rule (checked after normalizing):
 *   - 3 to 200 characters (200: any host can also be given as the `store` of a read, whose bound it is);
 *   - at least two labels separated by dots, each 1 to 63 characters of a–z, 0–9 and inner hyphens;
 *   - the last label holds a letter (an IPv4 address is not a host); IP literals, underscores,
 *     spaces and non-ASCII are refused (an internationalized name is given in its `xn--` form).
 * A host always holds a dot and an id or a handle never does, so one `store` parameter takes all three.
 */
export const HOST_MAX_LENGTH = 200;
/** What a host may be given as: a 200-character name, a trailing dot and a `:port`. */
export const HOST_INPUT_MAX_LENGTH = 260;
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** The host as stored (lower case, no port, no trailing dot), or null when it is not a host name. */
export function normalizeHost(raw: string): string | null {
  let host = raw.toLowerCase();
  const port = /:(\d{1,5})$/.exec(host);
  if (port) {
    if (Number(port[1]) < 1 || Number(port[1]) > 65535) return null;
    host = host.slice(0, port.index);
  }
  if (host.endsWith('.')) host = host.slice(0, -1);
  if (host.length < 3 || host.length > HOST_MAX_LENGTH) return null;
  const labels = host.split('.');
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return null;
  if (!/[a-z]/.test(labels[labels.length - 1])) return null;
  return host;
}

/** Does a `store` reference name a host (rather than an id or a handle)? */
export function isHostRef(ref: string): boolean {
  return ref.includes('.') || ref.includes(':');
}

/** The key a reference is looked up and remembered by: a host normalized; null for a malformed host. */
export function refKey(ref: string): string | null {
  return isHostRef(ref) ? normalizeHost(ref) : ref;
}

/** How other subgraphs learn about stores, which identity owns: asked, never read from identity's tables. */
export interface StoreDirectory {
  /** A store by its id, its handle or its host (`Shop.Example.com:443` finds `shop.example.com`); null when none. */
  resolve(ref: string): Promise<StoreRef | null>;
}

/**
 * The channel a command that creates or changes a store notifies, inside its transaction (delivered
 * at commit), with the references a directory may remember it by (JSON array: id, handle, old and
 * new host): every listening directory forgets them at once.
 */
export const STORES_CHANNEL = 'identity_stores';

function refsOf(payload: string): string[] {
  try {
    const parsed = JSON.parse(payload) as unknown;
    return Array.isArray(parsed) ? parsed.filter((ref): ref is string => typeof ref === 'string') : [];
  } catch {
    return [];
  }
}

/** A directory that remembers answers, and can be told to forget. */
export interface CachedStoreDirectory extends StoreDirectory {
  /** Drops what is remembered under these references (ids, handles, normalized hosts). */
  forget(refs: Iterable<string>): void;
  /** Starts listening to STORES_CHANNEL (when given `listen`): nothing is remembered until it listens. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export interface DirectoryOptions {
  /**
   * Listen to identity's STORES_CHANNEL on this database (identity's own, shared by every subgraph):
   * answers are remembered only while listening, and a change forgets them in milliseconds.
   */
  listen?: { connection: ClientConfig | string | (() => ClientConfig | string); log?: (line: string) => void };
  /** How long an answer is remembered: 30 s when listening (the bound should a notification be missed), else 2 s. */
  ttlMs?: number;
  /** How long an unknown store is remembered (so a typo cannot hammer identity): 2 s. */
  missTtlMs?: number;
}

/**
 * Remembers answers: a request costs at most one lookup, and most cost none. With `listen`, a store's
 * creation or change (its host set, changed or cleared) is forgotten by every process within
 * milliseconds of the commit; without it, answers live 2 s (the staleness bound of a process that
 * cannot reach the database).
 */
export function cachedDirectory(lookup: (ref: string) => Promise<StoreRef | null>, options: DirectoryOptions = {}): CachedStoreDirectory {
  const ttlMs = options.ttlMs ?? (options.listen ? 30_000 : 2_000);
  const missTtlMs = Math.min(options.missTtlMs ?? 2_000, ttlMs);
  // Bounded in entries and bytes (refs are at most 200 characters, so 10,000 entries stay under 4 MiB).
  const cache = new LRUCache<string, { value: StoreRef | null }>({
    max: 10_000,
    maxSize: 4 * 1024 * 1024,
    sizeCalculation: (_entry, ref) => 2 * ref.length + 128,
    ttl: ttlMs,
  });
  /** Bumped by every forget: a lookup that started before it must not store what it read. */
  let generation = 0;
  const forgetAll = () => {
    generation++;
    cache.clear();
  };
  const listen = options.listen;
  const channel = listen
    ? new ChannelListener({
        connection: listen.connection,
        channel: STORES_CHANNEL,
        applicationName: 'backoffice-stores-listen',
        onNotify: (payload) => directory.forget(refsOf(payload)),
        onListening: forgetAll,
        onDeaf: forgetAll,
        lostLine: (error) => `store notifications lost (${error.message}); asking identity on every request until they are back`,
        log: listen.log,
      })
    : null;
  const trusting = () => !channel || channel.listening;
  const directory: CachedStoreDirectory = {
    async resolve(ref) {
      const key = refKey(ref);
      if (key === null) return null;
      const hit = trusting() ? cache.get(key) : undefined;
      if (hit) return hit.value;
      const started = generation;
      const value = await lookup(key);
      if (trusting() && started === generation) cache.set(key, { value }, { ttl: value ? ttlMs : missTtlMs });
      return value;
    },
    forget(refs) {
      generation++;
      for (const ref of refs) cache.delete(ref);
    },
    start: async () => channel?.start(),
    stop: async () => channel?.stop(),
  };
  return directory;
}

/**
 * Identity in another process, through its internal endpoint. With `listen` (the process's
 * DATABASE_URL: the subgraphs share one PostgreSQL), it hears identity's store notifications and
 * remembers answers 30 s; without, 2 s.
 */
export function remoteDirectory(identityUrl: string, secret: string, options: Pick<DirectoryOptions, 'listen'> = {}): CachedStoreDirectory {
  const post = internalCaller('identity', identityUrl, secret);
  const directory = cachedDirectory(async (ref) => (await post<{ store: StoreRef | null }>('store', { ref })).store, options);
  // For the life of the process: it answers (uncached) while it connects.
  void directory.start();
  return directory;
}

/** The refusal of a store that is not the tenant's, naming what was given. */
export const noStoreMessage = (ref: string) => `no store ${JSON.stringify(ref)} (id or handle) in this tenant`;

/**
 * The store a call names, which must be the tenant's: by its id or its handle (a `store` parameter
 * also by its host), asked through the directory. Answers its id, the one stored and emitted, so a
 * handle never reaches a row or an event; another tenant's store is as unknown (a conflict).
 */
export async function storeOfTenant(stores: StoreDirectory, tenantId: string, ref: string, field = 'store_id'): Promise<string> {
  const store = await stores.resolve(ref);
  if (!store || store.tenant_id !== tenantId) throw conflict(noStoreMessage(ref), { reason: 'not_found', field });
  return store.store_id;
}

/** Who a store's mail comes from: its settings (tenant.store.update) and the names they fall back to. */
export interface StoreSender {
  store_id: string;
  tenant_id: string;
  store_name: string;
  tenant_name: string;
  /** null when unset: the sender name falls back to the store's name, then the tenant's. */
  notification_sender_name: string | null;
  /** null when unset: replies go to the instance's address (MAIL_FROM). */
  notification_reply_to: string | null;
}

/** How the notification pipeline (content) learns a store's sender settings, which identity owns. */
export interface StoreSenders {
  sender(storeId: string): Promise<StoreSender | null>;
}

/** A store's sender settings, asked of identity in another process (its `/internal/store_sender`). */
export function remoteStoreSenders(baseUrl: string, secret: string): StoreSenders {
  const post = internalCaller('identity', baseUrl, secret);
  return { sender: async (storeId) => (await post<{ sender: StoreSender | null }>('store_sender', { store_id: storeId })).sender };
}
