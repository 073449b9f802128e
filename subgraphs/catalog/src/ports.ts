import type { StoreDirectory } from '@backoffice/contracts';
import { operationDefiner, port, type PortsOf } from '@backoffice/platform';

/** What the catalog needs from outside itself, given when it is started (in process, or identity over HTTP). */
export const catalogPorts = {
  stores: port<StoreDirectory>('which tenant a store belongs to: identity owns stores, the catalog asks'),
};

export type CatalogPorts = PortsOf<typeof catalogPorts>;

/** `defineOperation` for the catalog: handlers get `call.ports` as CatalogPorts. */
export const defineCatalogOperation = operationDefiner(catalogPorts);
