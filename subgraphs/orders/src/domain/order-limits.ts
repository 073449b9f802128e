import type { CollectionLimit } from '@backoffice/platform';

/**
 * How many of each an order (a payment app, a tenant) holds at most: its lists in results declare these as
 * their `maxItems` (what the GraphQL cost estimate multiplies by), and the writes that add one refuse
 * past them (409 conflict, `limit_reached`). Far above any real order.
 */
export const ORDER_LIMITS = {
  /** Distinct SKUs of one checkout (and of a reservation): an order's items, a parcel's items. */
  items: { what: 'items per order', max: 100 },
  /** Parcels one order is split into (order.shipment.create). */
  parcels: { what: 'parcels per order', max: 100 },
  /** Documents attached to one order (order.document.attach). */
  documents: { what: 'documents per order', max: 100 },
  /** Payment attempts of one order: checkout opens the one there is. */
  paymentAttempts: { what: 'payment attempts per order', max: 10 },
  /** Warehouses of one tenant (a SKU's `stock_levels` lists one level per warehouse). */
  warehouses: { what: 'warehouses per tenant', max: 100 },
  /** Stores' window overrides of one payment app (payment.window.set), stores × methods. */
  paymentWindows: { what: 'payment window overrides per payment app', max: 200 },
} as const satisfies Record<string, CollectionLimit>;
