import type { CatalogSkus, StoreDirectory } from '@backoffice/contracts';
import { operationDefiner, port, type PortsOf } from '@backoffice/platform';

/** A payment app's check that a reported payment is real; `manual` (and any app without one) says yes at once. */
export interface PaymentVerifier {
  verify(payment: { app_key: string; method: string; order_id: string; provider_reference: string | null }): Promise<boolean>;
}

/** The verifier of every app: the payment is taken as reported. Deployments with a provider plug theirs in here. */
export const acceptReported: PaymentVerifier = { verify: async () => true };

/** What orders needs from outside itself. */
export const ordersPorts = {
  catalog: port<CatalogSkus>('SKU prices, titles and availability at checkout: the catalog owns them, orders asks'),
  stores: port<StoreDirectory>('which tenant a store belongs to: identity owns stores, orders asks'),
  payments: port<PaymentVerifier>('the verification a payment app runs before a confirmed payment marks an order paid'),
};

export type OrdersPorts = PortsOf<typeof ordersPorts>;

export const defineOrdersOperation = operationDefiner(ordersPorts);
