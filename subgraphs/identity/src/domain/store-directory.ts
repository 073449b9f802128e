import {
  cachedDirectory,
  isHostRef,
  refKey,
  STORES_CHANNEL,
  type CachedStoreDirectory,
  type StoreRef,
  type StoreSender,
  type StoreSenders,
} from '@backoffice/contracts';
import { notifyChannel, poolOf, sqlOf } from '@backoffice/platform';
import type { DataSource } from 'typeorm';

/*
 * Identity's side of the store directory (the port is in the contracts): stores read from its own
 * table, the notification that makes every directory forget a changed store, and the directory and
 * sender settings it gives the subgraphs started in its process.
 */

const BY_ID_OR_HANDLE = {
  name: 'identity_store_ref',
  text: `SELECT id AS store_id, tenant_id, handle FROM identity.store WHERE id = $1 OR handle = $1 LIMIT 1`,
};
const BY_HOST = {
  name: 'identity_store_ref_by_host',
  text: `SELECT id AS store_id, tenant_id, handle FROM identity.store WHERE host = $1`,
};

/** A store by its id, its handle or its host (any form `normalizeHost` takes). */
export async function resolveStore(dataSource: DataSource, ref: string): Promise<StoreRef | null> {
  const key = refKey(ref);
  if (key === null) return null;
  const [store] = await sqlOf(dataSource).statement<StoreRef>({ ...(isHostRef(key) ? BY_HOST : BY_ID_OR_HANDLE), values: [key] });
  return store ?? null;
}

/** The stores of a tenant, oldest first (the command line seeds a catalog into them). */
export async function storesOfTenant(dataSource: DataSource, tenantId: string): Promise<StoreRef[]> {
  return sqlOf(dataSource).rows<StoreRef>(`SELECT id AS store_id, tenant_id, handle FROM identity.store WHERE tenant_id = $1 ORDER BY id`, [tenantId]);
}

/** Tells every process's directory to forget these references of a store (in the command's transaction). */
export async function notifyStoreChanged(
  db: { query(sql: string, params?: unknown[]): Promise<unknown> },
  refs: ReadonlyArray<string | null | undefined>,
): Promise<void> {
  await notifyChannel(db, STORES_CHANNEL, JSON.stringify(refs.filter((ref): ref is string => !!ref)));
}

/**
 * Identity's directory for the subgraphs started in its process (`storeDirectoryOf`): made on first
 * ask, listening on identity's database for other processes' changes, and told of this process's own
 * at once (`committed`, before the command's caller hears back).
 */
export class LocalStoreDirectory {
  private directory: CachedStoreDirectory | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly log: (line: string) => void,
  ) {}

  get(): CachedStoreDirectory {
    if (!this.directory) {
      this.directory = cachedDirectory((ref) => resolveStore(this.dataSource, ref), {
        listen: { connection: () => poolOf(this.dataSource).options, log: this.log },
      });
      void this.directory.start();
    }
    return this.directory;
  }

  /** Forgets the stores a committed command created or changed (payloads of tenant.store.created / .updated). */
  forget(payloads: ReadonlyArray<Record<string, unknown>>): void {
    const refs = payloads.flatMap((p) => [p.store_id, p.handle, p.host, p.previous_host]).filter((ref): ref is string => typeof ref === 'string');
    this.directory?.forget(refs);
  }

  async stop(): Promise<void> {
    await this.directory?.stop();
    this.directory = null;
  }
}

/** Identity's answer, for subgraphs started in its process: asked when a message is prepared, never remembered. */
export function storeSendersOf(dataSource: DataSource): StoreSenders {
  return {
    async sender(storeId) {
      const sender = await sqlOf(dataSource).one<StoreSender>(
        `SELECT s.id AS store_id, s.tenant_id, s.name AS store_name, t.name AS tenant_name,
           nullif(s.notification_sender_name, '') AS notification_sender_name, nullif(s.notification_reply_to, '') AS notification_reply_to
         FROM identity.store s JOIN identity.tenant t ON t.id = s.tenant_id WHERE s.id = $1`,
        [storeId],
      );
      return sender ?? null;
    },
  };
}
