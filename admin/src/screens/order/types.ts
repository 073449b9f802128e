import type { OrderPageQuery } from '../../gql/graphql';

/** The order as the page reads it (OrderPage with OrderPageGaps). */
export type Order = NonNullable<OrderPageQuery['read_internal_order']>;
export type Shipment = Order['shipments'][number];
