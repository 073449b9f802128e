import type { FulfilmentStatus, OrderStatus } from '../gql/graphql';

/** Badge colours of an order's states, shared by the list and the order page. */
export const ORDER_STATUS_COLOR: Record<OrderStatus, string> = { pending_payment: 'yellow', paid: 'green', cancelled: 'gray' };
export const FULFILMENT_COLOR: Record<FulfilmentStatus, string> = { unfulfilled: 'gray', partially_shipped: 'yellow', shipped: 'blue', delivered: 'green' };
