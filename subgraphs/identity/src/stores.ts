import { poolOf } from '@backoffice/platform';
import type { DataSource } from 'typeorm';

/** Where a store belongs: what other subgraphs need to serve a public read by `store`. */
export interface StoreRef {
  store_id: string;
  tenant_id: string;
  handle: string;
}

const BY_ID_OR_HANDLE = {
  name: 'identity_store_ref',
  text: `SELECT id AS store_id, tenant_id, handle FROM identity.store WHERE id = $1 OR handle = $1 LIMIT 1`,
};

/** A store by its id or its handle. */
export async function resolveStore(dataSource: DataSource, ref: string): Promise<StoreRef | null> {
  const { rows } = await poolOf(dataSource).query({ ...BY_ID_OR_HANDLE, values: [ref] });
  return (rows[0] as StoreRef | undefined) ?? null;
}

/** The stores of a tenant, oldest first (the command line seeds a catalog into them). */
export async function storesOfTenant(dataSource: DataSource, tenantId: string): Promise<StoreRef[]> {
  const { rows } = await poolOf(dataSource).query(`SELECT id AS store_id, tenant_id, handle FROM identity.store WHERE tenant_id = $1 ORDER BY id`, [tenantId]);
  return rows as StoreRef[];
}
