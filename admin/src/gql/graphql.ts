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

export type CatalogMediaAttachInput = {
  /** max length 1000 */
  alt?: string | null | undefined;
  /** default "image"  */
  kind?: MediaKind | null | undefined;
  /** length 1 to 200 */
  owner_id: string;
  owner_type: MediaOwnerType;
  /** 0 to 2147483647 */
  position?: number | null | undefined;
  /** length 1 to 2000 */
  provider_key: string;
  /** max length 100 */
  role?: string | null | undefined;
};

export type CatalogOptionCreateInput = {
  /** length 1 to 200 */
  default_value: string;
  /** length 1 to 200 */
  name: string;
  /** length 1 to 200 */
  product_id: string;
  /** at least 1 item(s); each: length 1 to 200 */
  values: Array<string>;
};

export type CatalogProductCreateInput = {
  /** length 1 to 200; or null */
  brand_id?: string | null | undefined;
  categories?: Array<CatalogProductCreateInputCategories> | null | undefined;
  /** facetable custom fields (at most 100): string, number or boolean values */
  custom_fields?: unknown;
  /** max length 100000; or null */
  description?: string | null | undefined;
  /** length 1 to 200; pattern ^[a-z0-9]+(-[a-z0-9]+)*$ */
  handle: string;
  metadata?: unknown;
  /** default "draft"  */
  status?: ProductStatus | null | undefined;
  /** length 1 to 500 */
  title: string;
};

export type CatalogProductCreateInputCategories = {
  /** length 1 to 200 */
  category_id: string;
  is_primary?: boolean | null | undefined;
};

export type CatalogProductPublishInput = {
  /** length 1 to 200 */
  product_id: string;
  /** the store id or its handle; length 1 to 200 */
  store_id: string;
};

export type CatalogProductUnpublishInput = {
  /** length 1 to 200 */
  product_id: string;
  /** the store id or its handle; length 1 to 200 */
  store_id: string;
};

export type CatalogProductUpdateInput = {
  /** length 1 to 200; or null */
  brand_id?: string | null | undefined;
  categories?: Array<CatalogProductUpdateInputCategories> | null | undefined;
  /** facetable custom fields (at most 100): string, number or boolean values */
  custom_fields?: unknown;
  /** max length 100000; or null */
  description?: string | null | undefined;
  /** length 1 to 200; pattern ^[a-z0-9]+(-[a-z0-9]+)*$ */
  handle?: string | null | undefined;
  metadata?: unknown;
  /** length 1 to 200 */
  product_id: string;
  status?: ProductStatus | null | undefined;
  /** length 1 to 500 */
  title?: string | null | undefined;
};

export type CatalogProductUpdateInputCategories = {
  /** length 1 to 200 */
  category_id: string;
  is_primary?: boolean | null | undefined;
};

export type CatalogSkuCreateInput = {
  /** min 0 */
  amount: number;
  /** length 1 to 200 */
  code?: string | null | undefined;
  /** min 0; or null */
  compare_at_amount?: number | null | undefined;
  /** an ISO 4217 code; stored upper case; length 3 to 3; pattern ^[A-Za-z]{3}$ */
  currency?: string | null | undefined;
  /** max length 64 */
  ean?: string | null | undefined;
  /** height in centimetres; null when unknown; min 1; or null */
  height_cm?: number | null | undefined;
  is_default?: boolean | null | undefined;
  /** length in centimetres; null when unknown; min 1; or null */
  length_cm?: number | null | undefined;
  metadata?: unknown;
  /** max length 500 */
  name?: string | null | undefined;
  option_values?: Array<CatalogSkuCreateInputOptionValues> | null | undefined;
  /** length 1 to 200 */
  product_id: string;
  /** max length 200 */
  ref?: string | null | undefined;
  /** max length 100 */
  status?: string | null | undefined;
  /** weight in grams; null when unknown; min 1; or null */
  weight_grams?: number | null | undefined;
  /** width in centimetres; null when unknown; min 1; or null */
  width_cm?: number | null | undefined;
};

export type CatalogSkuCreateInputOptionValues = {
  /** max length 200 */
  option: string;
  /** max length 200 */
  value: string;
};

export type CatalogSkuSetPromotionInput = {
  /** min 0; or null; required: a value or null */
  promotional_amount?: number | null | undefined;
  /** length 1 to 200 */
  sku_id: string;
};

export type CatalogSkuUpdateInput = {
  /** must stay above a promotional amount the SKU has; min 0 */
  amount?: number | null | undefined;
  /** unique in the tenant; length 1 to 200 */
  code?: string | null | undefined;
  /** min 0; or null */
  compare_at_amount?: number | null | undefined;
  /** max length 64; or null */
  ean?: string | null | undefined;
  /** height in centimetres; null when unknown; min 1; or null */
  height_cm?: number | null | undefined;
  /** length in centimetres; null when unknown; min 1; or null */
  length_cm?: number | null | undefined;
  /** replaces the SKU’s metadata */
  metadata?: unknown;
  /** max length 500; or null */
  name?: string | null | undefined;
  /** max length 200; or null */
  ref?: string | null | undefined;
  /** length 1 to 200 */
  sku_id: string;
  /** max length 100 */
  status?: string | null | undefined;
  /** weight in grams; null when unknown; min 1; or null */
  weight_grams?: number | null | undefined;
  /** width in centimetres; null when unknown; min 1; or null */
  width_cm?: number | null | undefined;
};

/** How far an order's goods have gone (a shipment not yet dispatched counts for nothing). */
export type FulfilmentStatus =
  | 'delivered'
  | 'partially_shipped'
  | 'shipped'
  | 'unfulfilled';

export type IamApiKeyCreateInput = {
  /** 1 to 3650 */
  expires_in_days?: number | null | undefined;
  /** becomes the actor name in the audit trail; length 1 to 120 */
  name: string;
  never_expires?: boolean | null | undefined;
  /** no repeats; each: one of: admin.users.write, admin.users.read, audit.read, events.read, tenant.store.write, tenant.settings.write, shipping.write, content.write, content.read, extensions.write, extensions.egress.consent, order.read, order.write, inventory.reserve, inventory.write, payments.write, promotions.write, catalog.admin.read, catalog.product.write, catalog.sku.write, composition.write, logistics.read, notifications.read, pii.read, webhooks.write, webhooks.read */
  scopes: Array<string>;
};

export type InventoryAdjustInput = {
  /** -1000000000 to 1000000000 */
  delta?: number | null | undefined;
  /** 0 to 1000000000 */
  on_hand?: number | null | undefined;
  /** length 1 to 200 */
  sku_id: string;
  /** length 1 to 200 */
  warehouse_id?: string | null | undefined;
};

export type MediaKind =
  | 'document'
  | 'image'
  | 'video_external';

export type MediaOwnerType =
  | 'product'
  | 'sku';

export type OrderDirection =
  | 'ASC'
  | 'DESC';

export type OrderDocumentAttachInput = {
  /** an asset reference; exactly one of asset_id and file_url; length 1 to 200 */
  asset_id?: string | null | undefined;
  /** http(s) URL; exactly one of file_url and asset_id; length 1 to 2048 */
  file_url?: string | null | undefined;
  kind: OrderDocumentKind;
  /** kept with the document */
  metadata?: unknown;
  /** length 1 to 200 */
  name?: string | null | undefined;
  /** length 1 to 200 */
  order_id: string;
  /** a parcel of the order the document belongs to; length 1 to 200 */
  shipment_id?: string | null | undefined;
};

export type OrderDocumentKind =
  | 'content_declaration'
  | 'delivery_proof'
  | 'fiscal_invoice'
  | 'other'
  | 'packing_slip'
  | 'shipping_label';

export type OrderPaymentConfirmInput = {
  /** length 1 to 200 */
  order_id: string;
  /** length 1 to 200 */
  provider_reference?: string | null | undefined;
};

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


export type OrderPageQuery = { read_internal_order: { id: string, status: OrderStatus, fulfilment_status: FulfilmentStatus, currency: string, subtotal_amount: number, discount_amount: number, shipping_amount: number, total_amount: number, created_at: string, customer: { email: string, name: string | null, phone: string | null }, store: { handle: string, name: string } | null, items: Array<{ order_item_id: string, code: string, title: string, qty: number, line_amount: number, sku: { code: string, product: { title: string } | null } | null }>, payment_attempts: Array<{ method: string, status: PaymentAttemptStatus, created_at: string, payment_attempt_id: string, failure_reason: string | null, provider_reference: string | null, orphaned: boolean, payment_app: { name: string } | null }>, shipments: Array<{ shipment_id: string, status: ShipmentStatus, carrier: string | null, tracking_code: string | null, tracking_url: string | null, items: Array<{ order_item_id: string, qty: number }> }>, documents: Array<{ kind: OrderDocumentKind, name: string | null, document_id: string, shipment_id: string | null, file_url: string | null, asset_id: string | null, created_at: string }> } | null };

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

export type ProductPageQueryVariables = Exact<{
  id: string;
}>;


export type ProductPageQuery = { catalog_product: { id: string, title: string, handle: string, description: string | null, status: ProductStatus, brand_id: string | null, updated_at: string, custom_fields: unknown, brand: { name: string } | null, categories: Array<{ category_id: string, path: string, is_primary: boolean }>, stores: Array<{ store_id: string, published_at: string, store: { handle: string, name: string } }>, skus: Array<{ id: string, code: string, amount: number, currency: string, weight_grams: number | null, length_cm: number | null, width_cm: number | null, height_cm: number | null, stock_levels: Array<{ warehouse_id: string, on_hand: number, reserved: number, available: number, warehouse: { code: string, name: string } | null }>, option_values: Array<{ option: string, value: string }> | null, media: Array<{ media_id: string, kind: MediaKind, url: string | null, provider_key: string, alt: string | null, position: number, role: string | null }>, promotional_price: { unit_amount: number, promotional_amount: number } | null }>, options: Array<{ option_id: string, name: string, values: Array<string>, default_value: string, position: number }> | null, media: Array<{ media_id: string, kind: MediaKind, url: string | null, provider_key: string, alt: string | null, position: number, role: string | null }> } | null };

export type ProductChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type ProductChoicesQuery = { brands: { edges: Array<{ node: { id: string, name: string } }> } | null, categories: { edges: Array<{ node: { id: string, path: string, name: string } }> } | null, stores: { edges: Array<{ node: { id: string, handle: string, name: string } }> } | null, warehouses: { edges: Array<{ node: { id: string, code: string, name: string } }> } | null };

export type CreateProductMutationVariables = Exact<{
  input: CatalogProductCreateInput;
}>;


export type CreateProductMutation = { catalog_product_create: { product_id: string } | null };

export type UpdateProductMutationVariables = Exact<{
  input: CatalogProductUpdateInput;
}>;


export type UpdateProductMutation = { catalog_product_update: { product_id: string, status: ProductStatus } | null };

export type PublishProductMutationVariables = Exact<{
  input: CatalogProductPublishInput;
}>;


export type PublishProductMutation = { catalog_product_publish: { product_id: string, store_id: string, published: boolean } | null };

export type UnpublishProductMutationVariables = Exact<{
  input: CatalogProductUnpublishInput;
}>;


export type UnpublishProductMutation = { catalog_product_unpublish: { product_id: string, store_id: string, published: boolean } | null };

export type CreateSkuMutationVariables = Exact<{
  input: CatalogSkuCreateInput;
}>;


export type CreateSkuMutation = { catalog_sku_create: { sku_id: string } | null };

export type UpdateSkuMutationVariables = Exact<{
  input: CatalogSkuUpdateInput;
}>;


export type UpdateSkuMutation = { catalog_sku_update: { sku_id: string, amount: number, changed: Array<string> } | null };

export type AdjustStockMutationVariables = Exact<{
  input: InventoryAdjustInput;
}>;


export type AdjustStockMutation = { inventory_adjust: { sku_id: string, warehouse_id: string, on_hand: number, reserved: number, available: number } | null };

export type ApiKeysListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type ApiKeysListQuery = { api_keys: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, name: string, scopes: Array<string>, is_owner: boolean, expires_at: string | null, revoked: boolean } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type ApiKeyCreateMutationVariables = Exact<{
  input: IamApiKeyCreateInput;
}>;


export type ApiKeyCreateMutation = { iam_api_key_create: { api_key_id: string, token: string, expires_at: string | null } | null };

export type ApiKeyRevokeMutationVariables = Exact<{
  id: string;
}>;


export type ApiKeyRevokeMutation = { iam_api_key_revoke: { api_key_id: string, revoked: boolean } | null };

export type OrderPageGapsFragment = { customer: { name: string | null, phone: string | null }, payment_attempts: Array<{ payment_attempt_id: string, failure_reason: string | null, provider_reference: string | null, orphaned: boolean, payment_app: { name: string } | null }>, shipments: Array<{ tracking_url: string | null }>, documents: Array<{ document_id: string, shipment_id: string | null, file_url: string | null, asset_id: string | null, created_at: string }> };

export type OrderPaymentConfirmMutationVariables = Exact<{
  input: OrderPaymentConfirmInput;
}>;


export type OrderPaymentConfirmMutation = { order_payment_confirm: { order_id: string, status: OrderStatus, orphaned: boolean } | null };

export type OrderDocumentAttachMutationVariables = Exact<{
  input: OrderDocumentAttachInput;
}>;


export type OrderDocumentAttachMutation = { order_document_attach: { document_id: string, kind: string, attached: boolean } | null };

export type ProductPageGapsFragment = { custom_fields: unknown, options: Array<{ option_id: string, name: string, values: Array<string>, default_value: string, position: number }> | null, media: Array<{ media_id: string, kind: MediaKind, url: string | null, provider_key: string, alt: string | null, position: number, role: string | null }>, skus: Array<{ id: string, option_values: Array<{ option: string, value: string }> | null, media: Array<{ media_id: string, kind: MediaKind, url: string | null, provider_key: string, alt: string | null, position: number, role: string | null }>, promotional_price: { unit_amount: number, promotional_amount: number } | null }> };

export type CreateOptionMutationVariables = Exact<{
  input: CatalogOptionCreateInput;
}>;


export type CreateOptionMutation = { catalog_option_create: { option_id: string } | null };

export type AttachMediaMutationVariables = Exact<{
  input: CatalogMediaAttachInput;
}>;


export type AttachMediaMutation = { catalog_media_attach: { media_id: string, position: number } | null };

export type SetPromotionMutationVariables = Exact<{
  input: CatalogSkuSetPromotionInput;
}>;


export type SetPromotionMutation = { catalog_sku_set_promotion: { sku_id: string, promotional_amount: number | null } | null };

export type AuthMethodsQueryVariables = Exact<{ [key: string]: never; }>;


export type AuthMethodsQuery = { read_auth_methods: { oidc: { provider: string } | null } | null };

export const OrderPageGapsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrderPageGaps"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Order"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}}]}},{"kind":"Field","name":{"kind":"Name","value":"payment_attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payment_attempt_id"}},{"kind":"Field","name":{"kind":"Name","value":"failure_reason"}},{"kind":"Field","name":{"kind":"Name","value":"provider_reference"}},{"kind":"Field","name":{"kind":"Name","value":"orphaned"}},{"kind":"Field","name":{"kind":"Name","value":"payment_app"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"shipments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tracking_url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"documents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document_id"}},{"kind":"Field","name":{"kind":"Name","value":"shipment_id"}},{"kind":"Field","name":{"kind":"Name","value":"file_url"}},{"kind":"Field","name":{"kind":"Name","value":"asset_id"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}}]}}]}}]} as unknown as DocumentNode<OrderPageGapsFragment, unknown>;
export const ProductPageGapsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProductPageGaps"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"custom_fields"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"option_id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"}},{"kind":"Field","name":{"kind":"Name","value":"default_value"}},{"kind":"Field","name":{"kind":"Name","value":"position"}}]}},{"kind":"Field","name":{"kind":"Name","value":"media"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"media_id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"provider_key"}},{"kind":"Field","name":{"kind":"Name","value":"alt"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"skus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"option_values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"option"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"media"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"media_id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"provider_key"}},{"kind":"Field","name":{"kind":"Name","value":"alt"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"promotional_price"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unit_amount"}},{"kind":"Field","name":{"kind":"Name","value":"promotional_amount"}}]}}]}}]}}]} as unknown as DocumentNode<ProductPageGapsFragment, unknown>;
export const WhoamiDocument = {"__meta__":{"text":"query Whoami { read_internal_whoami { actor_id name scopes } }","hash":"37b4f6f0c0a899281f2710a288cc494e7bc01e693deec569bc39bb2832c04fee"}} as unknown as DocumentNode<WhoamiQuery, WhoamiQueryVariables>;
export const RequestLoginCodeDocument = {"__meta__":{"text":"mutation RequestLoginCode($input: AuthLoginCodeRequestInput!) { auth_login_code_request(input: $input) { expires_in_seconds requested } }","hash":"56f521553e4c5fcfa570e020c24c3618491000866861f9ba4fe4a06c6b5dece3"}} as unknown as DocumentNode<RequestLoginCodeMutation, RequestLoginCodeMutationVariables>;
export const ProductsListDocument = {"__meta__":{"text":"query ProductsList($after: String, $before: String, $filter: ProductFilter, $first: SafeInt, $last: SafeInt, $orderBy: ProductOrder) { products( first: $first after: $after last: $last before: $before filter: $filter orderBy: $orderBy ) { edges { cursor node { brand { name } handle id status title updated_at } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"0d9db69023009b24b114100c82ab654a96b54bf377da5a86ba30c0c7f3bbd926"}} as unknown as DocumentNode<ProductsListQuery, ProductsListQueryVariables>;
export const OrdersListDocument = {"__meta__":{"text":"query OrdersList($after: String, $before: String, $first: SafeInt, $last: SafeInt, $status: OrderStatus) { orders( first: $first after: $after last: $last before: $before filter: {status: $status} ) { edges { cursor node { created_at currency fulfilment_status id status store { name } total_amount } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"be42a6d562361e60544a1adadab6db8847650797bd7d5aa30ee69b61465aa0a3"}} as unknown as DocumentNode<OrdersListQuery, OrdersListQueryVariables>;
export const OrderPageDocument = {"__meta__":{"text":"fragment OrderPageGaps on Order { customer { name phone } documents { asset_id created_at document_id file_url shipment_id } payment_attempts { failure_reason orphaned payment_app { name } payment_attempt_id provider_reference } shipments { tracking_url } } query OrderPage($id: ID!) { read_internal_order(input: {order_id: $id}) { created_at currency customer { email } discount_amount documents { kind name } fulfilment_status id items { code line_amount order_item_id qty sku { code product { title } } title } payment_attempts { created_at method status } shipments { carrier items { order_item_id qty } shipment_id status tracking_code } shipping_amount status store { handle name } subtotal_amount total_amount ...OrderPageGaps } }","hash":"9d0a5200f725e2aa35e9d01699b46f559f23efdf77504acd794223748de63a36"}} as unknown as DocumentNode<OrderPageQuery, OrderPageQueryVariables>;
export const OrderMarkPaidDocument = {"__meta__":{"text":"mutation OrderMarkPaid($id: ID!) { order_mark_paid(input: {order_id: $id}) { order_id status } }","hash":"6ee0d799ddade427224b87dc5db639da465946b94ccd90bdc779bd5b599a7f71"}} as unknown as DocumentNode<OrderMarkPaidMutation, OrderMarkPaidMutationVariables>;
export const OrderCancelDocument = {"__meta__":{"text":"mutation OrderCancel($id: ID!) { order_cancel(input: {order_id: $id}) { order_id status } }","hash":"bb36e0414499d848da7651fccd0c28fd823f47bbb4624bcd8cbf01ff9df664c0"}} as unknown as DocumentNode<OrderCancelMutation, OrderCancelMutationVariables>;
export const ShipmentSplitDocument = {"__meta__":{"text":"mutation ShipmentSplit($input: OrderShipmentCreateInput!) { order_shipment_create(input: $input) { order_id shipment_id } }","hash":"68702847bf45db994d098c3d1134a753e19b77354542ca5ae922c063dba35c5e"}} as unknown as DocumentNode<ShipmentSplitMutation, ShipmentSplitMutationVariables>;
export const ShipmentSetTrackingDocument = {"__meta__":{"text":"mutation ShipmentSetTracking($input: OrderShipmentSetTrackingInput!) { order_shipment_set_tracking(input: $input) { order_id shipment_id } }","hash":"e3376583d38accce6097ebab2e8d4f29ab7653a5b35ba9bf350e219145c27aeb"}} as unknown as DocumentNode<ShipmentSetTrackingMutation, ShipmentSetTrackingMutationVariables>;
export const ShipmentDispatchDocument = {"__meta__":{"text":"mutation ShipmentDispatch($order: ID!, $shipment: ID!) { order_shipment_dispatch(input: {order_id: $order, shipment_id: $shipment}) { shipment_id status } }","hash":"8b1546abd3550b2fdd87b18df5f7539af881b7cda60893663ebed2ca3f41a123"}} as unknown as DocumentNode<ShipmentDispatchMutation, ShipmentDispatchMutationVariables>;
export const ShipmentDeliverDocument = {"__meta__":{"text":"mutation ShipmentDeliver($order: ID!, $shipment: ID!) { order_shipment_mark_delivered(input: {order_id: $order, shipment_id: $shipment}) { shipment_id status } }","hash":"0fa60810398f84b988e2df3756fb8fd8dc32ef90dd69613deb461459e127442e"}} as unknown as DocumentNode<ShipmentDeliverMutation, ShipmentDeliverMutationVariables>;
export const ProductPageDocument = {"__meta__":{"text":"fragment ProductPageGaps on Product { custom_fields media { alt kind media_id position provider_key role url } options { default_value name option_id position values } skus { id media { alt kind media_id position provider_key role url } option_values { option value } promotional_price { promotional_amount unit_amount } } } query ProductPage($id: ID!) { catalog_product(input: {product_id: $id}) { brand { name } brand_id categories { category_id is_primary path } description handle id skus { amount code currency height_cm id length_cm stock_levels { available on_hand reserved warehouse { code name } warehouse_id } weight_grams width_cm } status stores { published_at store { handle name } store_id } title updated_at ...ProductPageGaps } }","hash":"a1fd910ee435e3c69db4c4e3eed67f1081804a9ba96214819b29ce60a248ecf0"}} as unknown as DocumentNode<ProductPageQuery, ProductPageQueryVariables>;
export const ProductChoicesDocument = {"__meta__":{"text":"query ProductChoices { brands(first: 100) { edges { node { id name } } } categories(first: 100) { edges { node { id name path } } } stores(first: 100) { edges { node { handle id name } } } warehouses(first: 100) { edges { node { code id name } } } }","hash":"29f58f7b77f5af597ee0eff3b3181b9fd70f6a0305935c01b25430f820c18b96"}} as unknown as DocumentNode<ProductChoicesQuery, ProductChoicesQueryVariables>;
export const CreateProductDocument = {"__meta__":{"text":"mutation CreateProduct($input: CatalogProductCreateInput!) { catalog_product_create(input: $input) { product_id } }","hash":"181d6c04092adf631f12e064fc218d3cde93528c58ed5db4ebb2bf3a28d9f322"}} as unknown as DocumentNode<CreateProductMutation, CreateProductMutationVariables>;
export const UpdateProductDocument = {"__meta__":{"text":"mutation UpdateProduct($input: CatalogProductUpdateInput!) { catalog_product_update(input: $input) { product_id status } }","hash":"468789e1c1612efe950085883343d79836505c33c5288055bdfaa7e58461b6b5"}} as unknown as DocumentNode<UpdateProductMutation, UpdateProductMutationVariables>;
export const PublishProductDocument = {"__meta__":{"text":"mutation PublishProduct($input: CatalogProductPublishInput!) { catalog_product_publish(input: $input) { product_id published store_id } }","hash":"2fb2276b77d06bf85ea96d72afcf7ac386211d10479f4b0429c67c1700a92b1f"}} as unknown as DocumentNode<PublishProductMutation, PublishProductMutationVariables>;
export const UnpublishProductDocument = {"__meta__":{"text":"mutation UnpublishProduct($input: CatalogProductUnpublishInput!) { catalog_product_unpublish(input: $input) { product_id published store_id } }","hash":"a473173e2615fa7c2bf70541c88c957133c3ef5904c1de717d64fc516143e5d6"}} as unknown as DocumentNode<UnpublishProductMutation, UnpublishProductMutationVariables>;
export const CreateSkuDocument = {"__meta__":{"text":"mutation CreateSku($input: CatalogSkuCreateInput!) { catalog_sku_create(input: $input) { sku_id } }","hash":"345bbea0d583a31b99709ff42a0efa666472b804d7d565815595804210c00637"}} as unknown as DocumentNode<CreateSkuMutation, CreateSkuMutationVariables>;
export const UpdateSkuDocument = {"__meta__":{"text":"mutation UpdateSku($input: CatalogSkuUpdateInput!) { catalog_sku_update(input: $input) { amount changed sku_id } }","hash":"29cd358fa24c8acefe76f0c511e5099420e0e6d02b883f4391798da7e211c798"}} as unknown as DocumentNode<UpdateSkuMutation, UpdateSkuMutationVariables>;
export const AdjustStockDocument = {"__meta__":{"text":"mutation AdjustStock($input: InventoryAdjustInput!) { inventory_adjust(input: $input) { available on_hand reserved sku_id warehouse_id } }","hash":"5c6f896b662e7ba1e6f585a3765462d8a2d9497c685554bcfc489e643cc369fa"}} as unknown as DocumentNode<AdjustStockMutation, AdjustStockMutationVariables>;
export const ApiKeysListDocument = {"__meta__":{"text":"query ApiKeysList($after: String, $before: String, $first: SafeInt, $last: SafeInt) { api_keys(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { expires_at id is_owner name revoked scopes } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"8f960434724f8318563049b41fc7e9ba76fa179c953157427453cf04668655d0"}} as unknown as DocumentNode<ApiKeysListQuery, ApiKeysListQueryVariables>;
export const ApiKeyCreateDocument = {"__meta__":{"text":"mutation ApiKeyCreate($input: IamApiKeyCreateInput!) { iam_api_key_create(input: $input) { api_key_id expires_at token } }","hash":"b670f7298f9e4f3f0f4f80d932d6885864f561dc84d8846447712de9eb4ce0f5"}} as unknown as DocumentNode<ApiKeyCreateMutation, ApiKeyCreateMutationVariables>;
export const ApiKeyRevokeDocument = {"__meta__":{"text":"mutation ApiKeyRevoke($id: ID!) { iam_api_key_revoke(input: {api_key_id: $id}) { api_key_id revoked } }","hash":"4f5001963dbeee5429c0977a752f0f0a1266d2bc70490ef7b18f3428c994fe1f"}} as unknown as DocumentNode<ApiKeyRevokeMutation, ApiKeyRevokeMutationVariables>;
export const OrderPaymentConfirmDocument = {"__meta__":{"text":"mutation OrderPaymentConfirm($input: OrderPaymentConfirmInput!) { order_payment_confirm(input: $input) { order_id orphaned status } }","hash":"a6c39eb63d6f5237be3d95b3b81e300fc2ca7264839f4bef47e1df2a7cf71ac3"}} as unknown as DocumentNode<OrderPaymentConfirmMutation, OrderPaymentConfirmMutationVariables>;
export const OrderDocumentAttachDocument = {"__meta__":{"text":"mutation OrderDocumentAttach($input: OrderDocumentAttachInput!) { order_document_attach(input: $input) { attached document_id kind } }","hash":"edb437bde665871ea4d1d0000ad246e9967098150434f66c040ad817794c0ae4"}} as unknown as DocumentNode<OrderDocumentAttachMutation, OrderDocumentAttachMutationVariables>;
export const CreateOptionDocument = {"__meta__":{"text":"mutation CreateOption($input: CatalogOptionCreateInput!) { catalog_option_create(input: $input) { option_id } }","hash":"c4bac46998edff2019d904cd26de3894135c14a60978c88a9021fbb22567e3d3"}} as unknown as DocumentNode<CreateOptionMutation, CreateOptionMutationVariables>;
export const AttachMediaDocument = {"__meta__":{"text":"mutation AttachMedia($input: CatalogMediaAttachInput!) { catalog_media_attach(input: $input) { media_id position } }","hash":"c34deafa3d5435eded7f42d4493f0c925730df56022e2f9c9915d8e7563e89b6"}} as unknown as DocumentNode<AttachMediaMutation, AttachMediaMutationVariables>;
export const SetPromotionDocument = {"__meta__":{"text":"mutation SetPromotion($input: CatalogSkuSetPromotionInput!) { catalog_sku_set_promotion(input: $input) { promotional_amount sku_id } }","hash":"2237b193c6545520dfa269fc42653b18ead310cfee4531b40cb31fc36c775413"}} as unknown as DocumentNode<SetPromotionMutation, SetPromotionMutationVariables>;
export const AuthMethodsDocument = {"__meta__":{"text":"query AuthMethods { read_auth_methods { oidc { provider } } }","hash":"8fc991042d2b456ca34890acc1e94a3d02bd857fdb21781668f627709132f51c"}} as unknown as DocumentNode<AuthMethodsQuery, AuthMethodsQueryVariables>;