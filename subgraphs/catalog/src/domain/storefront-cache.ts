import { createHash } from 'node:crypto';
import { ChannelListener, poolOf, type HttpCaching, type PreparedJson, sqlOf } from '@backoffice/platform';
import { LRUCache } from 'lru-cache';
import type { DataSource, EntityManager } from 'typeorm';

/*
 * The catalog version of a tenant (`catalog_version`): bumped in the transaction of every catalog
 * command (derived.ts), announced on CATALOG_VERSION_CHANNEL at commit. It names what a store's
 * public pages show: their ETag carries it, and this process's page cache keys pages by it, so a
 * change is never served from either once it committed.
 */

export const CATALOG_VERSION_CHANNEL = 'catalog_version';

/** Bumps a tenant's catalog version in the caller's transaction; listening processes hear of it at commit. */
export async function bumpCatalogVersion(db: EntityManager, tenantId: string): Promise<number> {
  const [row] = await sqlOf(db).rows<{ version: number }>(
    `WITH v AS (
       INSERT INTO catalog.catalog_version (tenant_id, version) VALUES ($1, 1)
       ON CONFLICT (tenant_id) DO UPDATE SET version = catalog.catalog_version.version + 1 RETURNING version)
     SELECT v.version::float8 AS version, pg_notify('${CATALOG_VERSION_CHANNEL}', $1 || ' ' || v.version) FROM v`,
    [tenantId],
  );
  return row.version;
}

async function readVersion(db: EntityManager | DataSource, tenantId: string): Promise<number> {
  const rows = await sqlOf(db).rows<{ version: number }>(`SELECT version::float8 AS version FROM catalog.catalog_version WHERE tenant_id = $1`, [tenantId]);
  return rows[0]?.version ?? 0;
}

const seconds = (name: string, fallback: number) => {
  const raw = process.env[name];
  const n = Number(raw);
  return raw !== undefined && raw.trim() !== '' && Number.isSafeInteger(n) && n >= 0 ? n : fallback;
};

/** How the public products read may be cached (docs/catalog.md, "HTTP caching"). */
export interface StorefrontSettings {
  /** Seconds a client or CDN may reuse a page (`max-age`); also the longest a page lives in this process. Default 30. */
  maxAge: number;
  /** Seconds a CDN may serve a page past max-age while it revalidates (`stale-while-revalidate`). Default 30. */
  staleWhileRevalidate: number;
  /** Bytes of rendered pages this process keeps (0: none). Default 64 MiB. */
  pageCacheBytes: number;
}

export function storefrontSettings(): StorefrontSettings {
  return {
    maxAge: seconds('PRODUCTS_CACHE_MAX_AGE', 30),
    staleWhileRevalidate: seconds('PRODUCTS_CACHE_STALE_WHILE_REVALIDATE', 30),
    pageCacheBytes: seconds('PRODUCTS_PAGE_CACHE_BYTES', 64 * 1024 * 1024),
  };
}

/** A page's caching metadata: a strong ETag from the catalog version and the page's own key, and its purge keys. */
export function pageCaching(settings: StorefrontSettings, version: number, key: string, storeId: string, productIds: readonly string[]): HttpCaching {
  const digest = createHash('sha256').update(key).digest('base64url').slice(0, 22);
  return {
    etag: `"${version.toString(36)}-${digest}"`,
    maxAge: settings.maxAge,
    staleWhileRevalidate: settings.staleWhileRevalidate,
    tags: [`store-${storeId}`, ...productIds.map((id) => `product-${id}`)],
  };
}

/**
 * One process's memory of catalog versions and rendered pages. Versions are trusted only while the
 * channel listens (each process hears every commit within milliseconds; this process's own commits
 * are applied before their caller hears back); both live at most max-age, the bound should a
 * notification be lost unnoticed. Pages are bounded in bytes.
 */
export class StorefrontCache {
  private readonly versions: LRUCache<string, { version: number }>;
  private readonly pages: LRUCache<string, PreparedJson> | null;
  private readonly channel: ChannelListener;
  /** Bumped by every forget: a version read before it must not be stored. */
  private generation = 0;

  constructor(
    private readonly dataSource: DataSource,
    readonly settings: StorefrontSettings,
    log: (line: string) => void,
  ) {
    const ttl = Math.max(1, settings.maxAge) * 1000;
    // Tenant ids are short: 100,000 tenants stay under 20 MiB.
    this.versions = new LRUCache({ max: 100_000, ttl });
    this.pages =
      settings.pageCacheBytes > 0
        ? new LRUCache({ maxSize: settings.pageCacheBytes, sizeCalculation: (page, key) => page.size + 2 * key.length + 256, ttl })
        : null;
    this.channel = new ChannelListener({
      connection: () => poolOf(dataSource).options,
      channel: CATALOG_VERSION_CHANNEL,
      applicationName: 'backoffice-catalog-listen',
      onNotify: (payload) => {
        const [tenantId, version] = payload.split(' ');
        this.heard(tenantId, Number(version));
      },
      onListening: () => this.forgetAll(),
      onDeaf: () => this.forgetAll(),
      lostLine: (error) => `catalog version notifications lost (${error.message}); reading the version on every request until they are back`,
      log,
    });
  }

  start(): Promise<void> {
    return this.channel.start();
  }

  stop(): Promise<void> {
    return this.channel.stop();
  }

  private forgetAll(): void {
    this.generation++;
    this.versions.clear();
    this.pages?.clear();
  }

  /** A committed version (heard on the channel, or this process's own commit): never goes back. */
  heard(tenantId: string, version: number): void {
    if (!Number.isSafeInteger(version)) return;
    this.generation++;
    const known = this.versions.get(tenantId)?.version ?? 0;
    if (version > known) this.versions.set(tenantId, { version });
  }

  /** The tenant's current catalog version: remembered while the channel listens, else read. */
  async version(tenantId: string): Promise<number> {
    const trusting = this.channel.listening;
    const hit = trusting ? this.versions.get(tenantId) : undefined;
    if (hit) return hit.version;
    const started = this.generation;
    const version = await readVersion(this.dataSource, tenantId);
    if (trusting && this.channel.listening && started === this.generation) this.versions.set(tenantId, { version });
    return version;
  }

  page(version: number, key: string): PreparedJson | undefined {
    return this.pages?.get(`${version} ${key}`);
  }

  /**
   * Keeps a page. Its encodings are made when a client first takes one (see PreparedJson.encoded),
   * and each is weighed then, so that the bytes counted are the bytes held: set again (the same
   * value keeps its old size), living no longer than it would have.
   */
  keep(version: number, key: string, page: PreparedJson): void {
    const pages = this.pages;
    if (!pages) return;
    const at = `${version} ${key}`;
    page.keptBy(() => {
      const ttl = pages.getRemainingTTL(at);
      if (pages.peek(at) !== page || !(ttl > 0)) return;
      pages.delete(at);
      pages.set(at, page, { ttl });
    });
    pages.set(at, page);
  }
}

/** Each started catalog's cache, by its DataSource (a handler finds it through its `db`). */
const caches = new WeakMap<DataSource, StorefrontCache>();

export function startStorefrontCache(dataSource: DataSource, log: (line: string) => void): StorefrontCache {
  const cache = new StorefrontCache(dataSource, storefrontSettings(), log);
  caches.set(dataSource, cache);
  return cache;
}

export function storefrontCacheOf(db: EntityManager): StorefrontCache | undefined {
  return caches.get(db.connection);
}

/** The version without a started cache (a catalog run without its hooks): read each time. */
export const currentVersion = (db: EntityManager, tenantId: string): Promise<number> => {
  const cache = storefrontCacheOf(db);
  return cache ? cache.version(tenantId) : readVersion(db, tenantId);
};
