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


export type WhoamiQuery = { read_internal_whoami: { actor_id: string, name: string } | null };

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


export type OrderPageQuery = { read_internal_order: { id: string, status: OrderStatus, fulfilment_status: FulfilmentStatus, currency: string, subtotal_amount: number, discount_amount: number, shipping_amount: number, total_amount: number, created_at: string, customer: { email: string }, store: { handle: string, name: string } | null, items: Array<{ code: string, qty: number, line_amount: number, sku: { code: string, product: { title: string } | null } | null }>, payment_attempts: Array<{ method: string, status: PaymentAttemptStatus, created_at: string }>, shipments: Array<{ status: ShipmentStatus, tracking_code: string | null, items: Array<{ qty: number }> }>, documents: Array<{ kind: OrderDocumentKind, name: string | null }> } | null };


export const WhoamiDocument = {"__meta__":{"text":"query Whoami { read_internal_whoami { actor_id name } }","hash":"93d31c55168ea84a90f8bddbf6fdcc642c6eb73b745f31436c943f3acc1ceb2c"}} as unknown as DocumentNode<WhoamiQuery, WhoamiQueryVariables>;
export const RequestLoginCodeDocument = {"__meta__":{"text":"mutation RequestLoginCode($input: AuthLoginCodeRequestInput!) { auth_login_code_request(input: $input) { expires_in_seconds requested } }","hash":"56f521553e4c5fcfa570e020c24c3618491000866861f9ba4fe4a06c6b5dece3"}} as unknown as DocumentNode<RequestLoginCodeMutation, RequestLoginCodeMutationVariables>;
export const ProductsListDocument = {"__meta__":{"text":"query ProductsList($after: String, $before: String, $filter: ProductFilter, $first: SafeInt, $last: SafeInt, $orderBy: ProductOrder) { products( first: $first after: $after last: $last before: $before filter: $filter orderBy: $orderBy ) { edges { cursor node { brand { name } handle id status title updated_at } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"0d9db69023009b24b114100c82ab654a96b54bf377da5a86ba30c0c7f3bbd926"}} as unknown as DocumentNode<ProductsListQuery, ProductsListQueryVariables>;
export const OrdersListDocument = {"__meta__":{"text":"query OrdersList($after: String, $before: String, $first: SafeInt, $last: SafeInt, $status: OrderStatus) { orders( first: $first after: $after last: $last before: $before filter: {status: $status} ) { edges { cursor node { created_at currency fulfilment_status id status store { name } total_amount } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"be42a6d562361e60544a1adadab6db8847650797bd7d5aa30ee69b61465aa0a3"}} as unknown as DocumentNode<OrdersListQuery, OrdersListQueryVariables>;
export const OrderPageDocument = {"__meta__":{"text":"query OrderPage($id: ID!) { read_internal_order(input: {order_id: $id}) { created_at currency customer { email } discount_amount documents { kind name } fulfilment_status id items { code line_amount qty sku { code product { title } } } payment_attempts { created_at method status } shipments { items { qty } status tracking_code } shipping_amount status store { handle name } subtotal_amount total_amount } }","hash":"94caed645e8c2d9db208b3480324b7466102e58e3f57353b4eb2cfdf9170d24f"}} as unknown as DocumentNode<OrderPageQuery, OrderPageQueryVariables>;