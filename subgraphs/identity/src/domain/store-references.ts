import { unauthorized, type SubgraphContext, sqlOf } from '@backoffice/platform';
import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import type { Store } from '../entities';
import { storeViewOf, type StoreView } from './stores';

/** One loader per request: an order list naming many stores costs one statement. */
const perRequest = new WeakMap<SubgraphContext, DataLoader<string, StoreView | null>>();

/**
 * `Store` is a federation entity (key `store_id`): orders (an order's `store`) and content reference
 * it, and the gateway asks identity for the rest. Any valid key of the tenant may read it, as
 * `read.internal.stores` (a store is no secret to its own tenant); another tenant's store is null;
 * `notification_reply_to` is masked without pii.read. No key at all: `unauthorized` on the field.
 */
export function storeReferenceResolvers({ dataSource }: { dataSource: DataSource }) {
  return {
    Store: {
      async __resolveReference(reference: { store_id: string }, context: SubgraphContext) {
        const actor = context.call?.actor;
        if (!actor) throw unauthorized().toGraphQLError();
        let loader = perRequest.get(context);
        if (!loader) {
          loader = new DataLoader(async (ids: readonly string[]) => {
            const rows = await sqlOf(dataSource).rows<Store>(`SELECT * FROM identity.store WHERE id = ANY($1::text[]) AND tenant_id = $2`, [
              ids,
              actor.tenant_id,
            ]);
            const byId = new Map(rows.map((row) => [row.id, storeViewOf(row, actor)]));
            return ids.map((id) => byId.get(id) ?? null);
          });
          perRequest.set(context, loader);
        }
        return loader.load(reference.store_id);
      },
    },
  };
}
