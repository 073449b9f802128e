/**
 * How far an order's goods have gone, from its shipments' states and quantities (a shipment not yet
 * dispatched counts for nothing): `delivered` when every item's quantity is in delivered shipments,
 * `shipped` when every item's quantity is in dispatched or delivered ones, `partially_shipped` when
 * some of it is, `unfulfilled` when none is.
 */
export const FULFILMENT_STATUSES = ['unfulfilled', 'partially_shipped', 'shipped', 'delivered'] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

interface Line {
  order_item_id: string;
  qty: number;
}

export function fulfilmentOf(items: readonly Line[], shipments: ReadonlyArray<{ status: string; items: readonly Line[] }>): FulfilmentStatus {
  const sent = new Map<string, number>();
  const delivered = new Map<string, number>();
  for (const shipment of shipments) {
    if (shipment.status === 'pending') continue;
    for (const line of shipment.items) {
      sent.set(line.order_item_id, (sent.get(line.order_item_id) ?? 0) + line.qty);
      if (shipment.status === 'delivered') delivered.set(line.order_item_id, (delivered.get(line.order_item_id) ?? 0) + line.qty);
    }
  }
  const all = (counts: Map<string, number>) => items.every((item) => (counts.get(item.order_item_id) ?? 0) >= item.qty);
  if (items.length && all(delivered)) return 'delivered';
  if (items.length && all(sent)) return 'shipped';
  return sent.size ? 'partially_shipped' : 'unfulfilled';
}
