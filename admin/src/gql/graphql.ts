/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type AuthLoginCodeRequestInput = {
  /** format: email; max length 320 */
  email: string;
  /** the handle of the store the operator logs in at (names the tenant); length 1 to 63; pattern ^[a-z0-9]+(-[a-z0-9]+)*$ */
  store: string;
};

/** How far an order's goods have gone (a shipment not yet dispatched counts for nothing). */
export type FulfilmentStatus =
  | 'delivered'
  | 'partially_shipped'
  | 'shipped'
  | 'unfulfilled';

export type OrderDirection =
  | 'ASC'
  | 'DESC';

export type OrderDocumentKind =
  | 'content_declaration'
  | 'delivery_proof'
  | 'fiscal_invoice'
  | 'other'
  | 'packing_slip'
  | 'shipping_label';

export type OrderShipmentCreateInput = {
  /** the parcel to take from; default: the order's only parcel not yet dispatched; length 1 to 200 */
  from_shipment_id?: string | null | undefined;
  /** distinct order items; at least 1 item(s) */
  items: Array<OrderShipmentCreateInputItems>;
  /** length 1 to 200 */
  order_id: string;
  /** where the new parcel ships from (a warehouse of the tenant); default: the source parcel's; length 1 to 200 */
  warehouse_id?: string | null | undefined;
};

export type OrderShipmentCreateInputItems = {
  /** length 1 to 200 */
  order_item_id: string;
  /** 1 to 1000000000 */
  qty: number;
};

export type OrderShipmentSetTrackingInput = {
  /** length 1 to 100 */
  carrier?: string | null | undefined;
  /** length 1 to 200 */
  order_id: string;
  /** the parcel; default: the order's only parcel; length 1 to 200 */
  shipment_id?: string | null | undefined;
  /** length 1 to 200 */
  tracking_code?: string | null | undefined;
  /** http(s) URL; the carrier's tracking page; length 1 to 2048 */
  tracking_url?: string | null | undefined;
};

export type OrderStatus =
  | 'cancelled'
  | 'paid'
  | 'pending_payment';

export type PaymentAttemptStatus =
  | 'confirming'
  | 'failed'
  | 'open'
  | 'succeeded';

export type ProductFilter = {
  /** the brand’s products; length 1 to 200 */
  brand_id?: string | null | undefined;
  /** the products in this category or below it; length 1 to 200 */
  category_id?: string | null | undefined;
  /** the collection’s products; length 1 to 200 */
  collection_id?: string | null | undefined;
  /** searches title and handle; length 1 to 200 */
  q?: string | null | undefined;
  status?: ProductStatus | null | undefined;
};

export type ProductOrder = {
  /** default "DESC"  */
  direction?: OrderDirection | null | undefined;
  field: ProductOrderField;
};

export type ProductOrderField =
  | 'created_at'
  | 'title'
  | 'updated_at';

export type ProductStatus =
  | 'active'
  | 'archived'
  | 'draft';

export type ShipmentStatus =
  | 'delivered'
  | 'dispatched'
  | 'pending';

export type WhoamiQueryVariables = Exact<{ [key: string]: never; }>;


export type WhoamiQuery = { read_internal_whoami: { actor_id: string, name: string, scopes: Array<string> } | null };

export type RequestLoginCodeMutationVariables = Exact<{
  input: AuthLoginCodeRequestInput;
}>;


export type RequestLoginCodeMutation = { auth_login_code_request: { requested: boolean, expires_in_seconds: number } | null };

export type ProductsListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: ProductFilter | null | undefined;
  orderBy?: ProductOrder | null | undefined;
}>;


export type ProductsListQuery = { products: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, title: string, handle: string, status: ProductStatus, updated_at: string, brand: { name: string } | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type OrdersListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  status?: OrderStatus | null | undefined;
}>;


export type OrdersListQuery = { orders: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, status: OrderStatus, fulfilment_status: FulfilmentStatus, total_amount: number, currency: string, created_at: string, store: { name: string } | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type OrderPageQueryVariables = Exact<{
  id: string;
}>;


export type OrderPageQuery = { read_internal_order: { id: string, status: OrderStatus, fulfilment_status: FulfilmentStatus, currency: string, subtotal_amount: number, discount_amount: number, shipping_amount: number, total_amount: number, created_at: string, customer: { email: string }, store: { handle: string, name: string } | null, items: Array<{ order_item_id: string, code: string, title: string, qty: number, line_amount: number, sku: { code: string, product: { title: string } | null } | null }>, payment_attempts: Array<{ method: string, status: PaymentAttemptStatus, created_at: string }>, shipments: Array<{ shipment_id: string, status: ShipmentStatus, carrier: string | null, tracking_code: string | null, items: Array<{ order_item_id: string, qty: number }> }>, documents: Array<{ kind: OrderDocumentKind, name: string | null }> } | null };

export type OrderMarkPaidMutationVariables = Exact<{
  id: string;
}>;


export type OrderMarkPaidMutation = { order_mark_paid: { order_id: string, status: OrderStatus } | null };

export type OrderCancelMutationVariables = Exact<{
  id: string;
}>;


export type OrderCancelMutation = { order_cancel: { order_id: string, status: OrderStatus } | null };

export type ShipmentSplitMutationVariables = Exact<{
  input: OrderShipmentCreateInput;
}>;


export type ShipmentSplitMutation = { order_shipment_create: { order_id: string, shipment_id: string } | null };

export type ShipmentSetTrackingMutationVariables = Exact<{
  input: OrderShipmentSetTrackingInput;
}>;


export type ShipmentSetTrackingMutation = { order_shipment_set_tracking: { order_id: string, shipment_id: string } | null };

export type ShipmentDispatchMutationVariables = Exact<{
  order: string;
  shipment: string;
}>;


export type ShipmentDispatchMutation = { order_shipment_dispatch: { shipment_id: string, status: ShipmentStatus } | null };

export type ShipmentDeliverMutationVariables = Exact<{
  order: string;
  shipment: string;
}>;


export type ShipmentDeliverMutation = { order_shipment_mark_delivered: { shipment_id: string, status: ShipmentStatus } | null };


export const WhoamiDocument = {"__meta__":{"text":"query Whoami { read_internal_whoami { actor_id name scopes } }","hash":"37b4f6f0c0a899281f2710a288cc494e7bc01e693deec569bc39bb2832c04fee"}} as unknown as DocumentNode<WhoamiQuery, WhoamiQueryVariables>;
export const RequestLoginCodeDocument = {"__meta__":{"text":"mutation RequestLoginCode($input: AuthLoginCodeRequestInput!) { auth_login_code_request(input: $input) { expires_in_seconds requested } }","hash":"56f521553e4c5fcfa570e020c24c3618491000866861f9ba4fe4a06c6b5dece3"}} as unknown as DocumentNode<RequestLoginCodeMutation, RequestLoginCodeMutationVariables>;
export const ProductsListDocument = {"__meta__":{"text":"query ProductsList($after: String, $before: String, $filter: ProductFilter, $first: SafeInt, $last: SafeInt, $orderBy: ProductOrder) { products( first: $first after: $after last: $last before: $before filter: $filter orderBy: $orderBy ) { edges { cursor node { brand { name } handle id status title updated_at } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"0d9db69023009b24b114100c82ab654a96b54bf377da5a86ba30c0c7f3bbd926"}} as unknown as DocumentNode<ProductsListQuery, ProductsListQueryVariables>;
export const OrdersListDocument = {"__meta__":{"text":"query OrdersList($after: String, $before: String, $first: SafeInt, $last: SafeInt, $status: OrderStatus) { orders( first: $first after: $after last: $last before: $before filter: {status: $status} ) { edges { cursor node { created_at currency fulfilment_status id status store { name } total_amount } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"be42a6d562361e60544a1adadab6db8847650797bd7d5aa30ee69b61465aa0a3"}} as unknown as DocumentNode<OrdersListQuery, OrdersListQueryVariables>;
export const OrderPageDocument = {"__meta__":{"text":"query OrderPage($id: ID!) { read_internal_order(input: {order_id: $id}) { created_at currency customer { email } discount_amount documents { kind name } fulfilment_status id items { code line_amount order_item_id qty sku { code product { title } } title } payment_attempts { created_at method status } shipments { carrier items { order_item_id qty } shipment_id status tracking_code } shipping_amount status store { handle name } subtotal_amount total_amount } }","hash":"2b52bc310f537c462457b48adf1834e30248931e3c8cfb08606f8e4ee7ce7b4b"}} as unknown as DocumentNode<OrderPageQuery, OrderPageQueryVariables>;
export const OrderMarkPaidDocument = {"__meta__":{"text":"mutation OrderMarkPaid($id: ID!) { order_mark_paid(input: {order_id: $id}) { order_id status } }","hash":"6ee0d799ddade427224b87dc5db639da465946b94ccd90bdc779bd5b599a7f71"}} as unknown as DocumentNode<OrderMarkPaidMutation, OrderMarkPaidMutationVariables>;
export const OrderCancelDocument = {"__meta__":{"text":"mutation OrderCancel($id: ID!) { order_cancel(input: {order_id: $id}) { order_id status } }","hash":"bb36e0414499d848da7651fccd0c28fd823f47bbb4624bcd8cbf01ff9df664c0"}} as unknown as DocumentNode<OrderCancelMutation, OrderCancelMutationVariables>;
export const ShipmentSplitDocument = {"__meta__":{"text":"mutation ShipmentSplit($input: OrderShipmentCreateInput!) { order_shipment_create(input: $input) { order_id shipment_id } }","hash":"68702847bf45db994d098c3d1134a753e19b77354542ca5ae922c063dba35c5e"}} as unknown as DocumentNode<ShipmentSplitMutation, ShipmentSplitMutationVariables>;
export const ShipmentSetTrackingDocument = {"__meta__":{"text":"mutation ShipmentSetTracking($input: OrderShipmentSetTrackingInput!) { order_shipment_set_tracking(input: $input) { order_id shipment_id } }","hash":"e3376583d38accce6097ebab2e8d4f29ab7653a5b35ba9bf350e219145c27aeb"}} as unknown as DocumentNode<ShipmentSetTrackingMutation, ShipmentSetTrackingMutationVariables>;
export const ShipmentDispatchDocument = {"__meta__":{"text":"mutation ShipmentDispatch($order: ID!, $shipment: ID!) { order_shipment_dispatch(input: {order_id: $order, shipment_id: $shipment}) { shipment_id status } }","hash":"8b1546abd3550b2fdd87b18df5f7539af881b7cda60893663ebed2ca3f41a123"}} as unknown as DocumentNode<ShipmentDispatchMutation, ShipmentDispatchMutationVariables>;
export const ShipmentDeliverDocument = {"__meta__":{"text":"mutation ShipmentDeliver($order: ID!, $shipment: ID!) { order_shipment_mark_delivered(input: {order_id: $order, shipment_id: $shipment}) { shipment_id status } }","hash":"0fa60810398f84b988e2df3756fb8fd8dc32ef90dd69613deb461459e127442e"}} as unknown as DocumentNode<ShipmentDeliverMutation, ShipmentDeliverMutationVariables>;