import type { DerivedCopies } from '@backoffice/platform';
import { catalogEvents } from './events';
import { renderDocuments } from './domain/product-document';
import { refreshListings } from './domain/publication';
import { bumpCatalogVersion, storefrontCacheOf } from './domain/storefront-cache';

/**
 * What the catalog derives from its tables, kept in step here and only here, in the transaction of
 * the command that changed them: every product an event names gets its documents rendered again
 * and its listings refreshed; any catalog change bumps the tenant's catalog version (the ETag of its
 * stores' pages), which this process applies the moment the command commits.
 */
export const catalogDerived: DerivedCopies = {
  events: catalogEvents,
  async refresh(db, events, tenantId) {
    const products = [...new Set(events.map((e) => e.payload.product_id).filter((id): id is string => typeof id === 'string'))];
    if (products.length) {
      await renderDocuments(db, products);
      await refreshListings(db, products, tenantId);
    }
    const version = await bumpCatalogVersion(db, tenantId);
    const cache = storefrontCacheOf(db);
    return () => cache?.heard(tenantId, version);
  },
};
