/**
 * The contracts between subgraphs: the ports one serves and another uses, with their clients for a
 * server in another process, and the events one emits and another consumes. A subgraph imports
 * these and the platform, never another subgraph.
 */
export { remoteCatalogSkus, SKU_SHIPPING_FIELDS, type CatalogSkus, type SkuShipping, type SkuShippingField, type SkuSnapshot } from './catalog';
export { EVENT_CATALOG } from './event-catalog';
export { tenantCreated } from './events';
export { remoteIdentity, remoteLoginCodeHandoff, type IdentityClient, type LoginCodeHandoff, type LoginCodeMail } from './identity';
export {
  cachedDirectory,
  HOST_INPUT_MAX_LENGTH,
  HOST_MAX_LENGTH,
  isHostRef,
  normalizeHost,
  refKey,
  remoteDirectory,
  remoteStoreSenders,
  noStoreMessage,
  storeOfTenant,
  STORES_CHANNEL,
  type CachedStoreDirectory,
  type DirectoryOptions,
  type StoreDirectory,
  type StoreRef,
  type StoreSender,
  type StoreSenders,
} from './stores';
