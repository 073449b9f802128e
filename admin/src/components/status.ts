import type { FulfilmentStatus, OrderStatus } from '../gql/graphql';

/** Badge colours of an order's states, shared by the list and the order page. */
export const ORDER_STATUS_COLOR: Record<OrderStatus, string> = { pending_payment: 'yellow', paid: 'green', cancelled: 'gray' };
/** Fulfilment shows as a dot badge: its text keeps the body's colour, legible on striped rows (an outline's green is not). */
export const FULFILMENT_COLOR: Record<FulfilmentStatus, string> = {
  unfulfilled: 'gray',
  partially_dispatched: 'yellow',
  dispatched: 'blue',
  delivered: 'green',
};
