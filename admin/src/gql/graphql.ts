/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type AdminUserInviteInput = {
  /** an http(s) address; another scheme is refused; format: uri; max length 2000; pattern ^[Hh][Tt][Tt][Pp][Ss]?:// */
  admin_login_url?: string | null | undefined;
  /** format: email; max length 320 */
  email: string;
  /** documented values: en, pt-BR, es; length 2 to 10; pattern ^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$ */
  locale?: string | null | undefined;
  /** length 1 to 120 */
  name?: string | null | undefined;
  /** owner: every scope; admin: every scope but admin.users.write and extensions.egress.consent; staff: reads, orders, reservations */
  role?: AdminUserRole | null | undefined;
};

export type AdminUserRole =
  | 'admin'
  | 'owner'
  | 'staff';

export type AdminUserStatus =
  | 'active'
  | 'deactivated'
  | 'invited';

export type AdminUserUpdateInput = {
  /** length 1 to 200 */
  admin_user_id: string;
  /** documented values: en, pt-BR, es; length 2 to 10; pattern ^[A-Za-z0-9]+(-[A-Za-z0-9]+)*$ */
  locale?: string | null | undefined;
  /** length 1 to 120 */
  name?: string | null | undefined;
  /** owner: every scope; admin: every scope but admin.users.write and extensions.egress.consent; staff: reads, orders, reservations */
  role?: AdminUserRole | null | undefined;
};

export type AuthLoginCodeRequestInput = {
  /** format: email; max length 320 */
  email: string;
  /** the handle of the store the operator logs in at (names the tenant); length 1 to 63; pattern ^[a-z0-9]+(-[a-z0-9]+)*$ */
  store: string;
};

export type CatalogAuditInput = {
  /** an actor name or actor_id; length 1 to 200 */
  actor?: string | null | undefined;
  /** 1 to 1000; default 24 */
  limit?: number | null | undefined;
  /** length 1 to 200 */
  operation?: string | null | undefined;
  /** min 1; default 1 */
  page?: number | null | undefined;
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
  /** at least 1 item(s); at most 500 item(s); each: length 1 to 200 */
  values: Array<string>;
};

export type CatalogProductCreateInput = {
  /** length 1 to 200; or null */
  brand_id?: string | null | undefined;
  /** at most 50 item(s) */
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
  /** at most 50 item(s) */
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
  /** at most 20 item(s) */
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

export type ContentAuditInput = {
  /** an actor name or actor_id; length 1 to 200 */
  actor?: string | null | undefined;
  /** 1 to 1000; default 24 */
  limit?: number | null | undefined;
  /** length 1 to 200 */
  operation?: string | null | undefined;
  /** min 1; default 1 */
  page?: number | null | undefined;
};

export type ContentPageCreateInput = {
  /** length 1 to 1000; or null */
  meta_description?: string | null | undefined;
  /** length 1 to 200; or null */
  meta_title?: string | null | undefined;
  published?: boolean | null | undefined;
  /** unique in its store; length 1 to 120; pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$ */
  slug: string;
  /** the store's id or handle; length 1 to 200 */
  store_id: string;
  /** the theme template that holds the page content; length 1 to 200 */
  template_key: string;
  /** length 1 to 200 */
  title: string;
};

export type ContentPageUpdateInput = {
  /** length 1 to 1000; or null */
  meta_description?: string | null | undefined;
  /** length 1 to 200; or null */
  meta_title?: string | null | undefined;
  /** length 1 to 200 */
  page_id: string;
  published?: boolean | null | undefined;
  /** unique in its store; length 1 to 120; pattern ^[a-z0-9]+(?:-[a-z0-9]+)*$ */
  slug?: string | null | undefined;
  /** the theme template that holds the page content; length 1 to 200 */
  template_key?: string | null | undefined;
  /** length 1 to 200 */
  title?: string | null | undefined;
};

export type FulfilmentStatus =
  | 'delivered'
  | 'dispatched'
  | 'partially_dispatched'
  | 'unfulfilled';

export type IamApiKeyCreateInput = {
  /** 1 to 3650 */
  expires_in_days?: number | null | undefined;
  /** becomes the actor name in the audit trail; length 1 to 120 */
  name: string;
  never_expires?: boolean | null | undefined;
  /** at most 26 item(s); no repeats; each: one of: admin.users.write, admin.users.read, audit.read, events.read, tenant.store.write, tenant.settings.write, shipping.write, content.write, content.read, extensions.write, extensions.egress.consent, order.read, order.write, inventory.reserve, inventory.write, payments.write, promotions.write, catalog.admin.read, catalog.product.write, catalog.sku.write, composition.write, logistics.read, notifications.read, pii.read, webhooks.write, webhooks.read */
  scopes: Array<string>;
};

export type IamApiKeyRotateInput = {
  /** length 1 to 200 */
  api_key_id: string;
  /** 1 to 3650 */
  expires_in_days?: number | null | undefined;
  never_expires?: boolean | null | undefined;
  /** 0 is an immediate cut-over; 0 to 8760; default 24 */
  overlap_hours?: number | null | undefined;
};

export type IdentityAuditInput = {
  /** an actor name or actor_id; length 1 to 200 */
  actor?: string | null | undefined;
  /** 1 to 1000; default 24 */
  limit?: number | null | undefined;
  /** length 1 to 200 */
  operation?: string | null | undefined;
  /** min 1; default 1 */
  page?: number | null | undefined;
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

export type NotificationChannelFieldType =
  | 'html'
  | 'multiline'
  | 'select'
  | 'text'
  | 'variable_list';

export type NotificationChannelRegisterInput = {
  /** length 1 to 120; or null */
  extension_id?: string | null | undefined;
  /** lowercase letter, then lowercase letters, digits, underscores; length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  key: string;
  /** length 1 to 80 */
  label: string;
  /** length 1 to 400; or null */
  notice?: string | null | undefined;
  /** no field name twice; options only (and at least one) for select; at most 40 item(s) */
  variant_schema: Array<NotificationChannelRegisterInputVariantSchema>;
};

export type NotificationChannelRegisterInputVariantSchema = {
  /** max length 400 */
  help?: string | null | undefined;
  /** length 1 to 120 */
  label: string;
  /** lowercase letter, then lowercase letters, digits, underscores; length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  name: string;
  /** the choices of a select field; at most 100 item(s) */
  options?: Array<NotificationChannelRegisterInputVariantSchemaOptions> | null | undefined;
  required?: boolean | null | undefined;
  /** the value is a template rendered per message (Handlebars) */
  template?: boolean | null | undefined;
  type: NotificationChannelRegisterInputVariantSchemaType;
};

export type NotificationChannelRegisterInputVariantSchemaOptions = {
  /** max length 200 */
  label: string;
  /** max length 200 */
  value: string;
};

export type NotificationChannelRegisterInputVariantSchemaType =
  | 'html'
  | 'multiline'
  | 'select'
  | 'text'
  | 'variable_list';

export type NotificationChannelSetEnabledInput = {
  /** lowercase letter, then lowercase letters, digits, underscores; length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  channel_key: string;
  enabled: boolean;
  /** a language tag: en, pt-BR, es are shipped; a locale falls back to its language (before the first -), then en; length 2 to 35; pattern ^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$ */
  locale?: string | null | undefined;
  /** a store of the tenant, by id or handle; null or omitted: the whole tenant; length 1 to 200; or null */
  store_id?: string | null | undefined;
  /** a message type: order.paid, order.cancelled, shipment.created, admin_user.invited, auth.login_code; length 1 to 64 */
  type_key: string;
};

export type NotificationFilter = {
  /** length 1 to 64 */
  channel_key?: string | null | undefined;
  status?: NotificationStatus | null | undefined;
  /** length 1 to 200 */
  store_id?: string | null | undefined;
  /** length 1 to 64 */
  type_key?: string | null | undefined;
};

export type NotificationStatus =
  | 'failed'
  | 'pending'
  | 'sent';

export type NotificationTemplateSetInput = {
  /** lowercase letter, then lowercase letters, digits, underscores; length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  channel_key: string;
  /** field name → value, names from the channel's variant_schema */
  fields: unknown;
  /** a language tag: en, pt-BR, es are shipped; a locale falls back to its language (before the first -), then en; length 2 to 35; pattern ^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$ */
  locale: string;
  /** a store of the tenant, by id or handle; null or omitted: the whole tenant; length 1 to 200; or null */
  store_id?: string | null | undefined;
  /** a message type: order.paid, order.cancelled, shipment.created, admin_user.invited, auth.login_code; length 1 to 64 */
  type_key: string;
};

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
  /** distinct order items; at least 1 item(s); at most 100 item(s) */
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

export type OrdersAuditInput = {
  /** an actor name or actor_id; length 1 to 200 */
  actor?: string | null | undefined;
  /** 1 to 1000; default 24 */
  limit?: number | null | undefined;
  /** length 1 to 200 */
  operation?: string | null | undefined;
  /** min 1; default 1 */
  page?: number | null | undefined;
};

export type PageFilterStatus =
  | 'archived'
  | 'draft'
  | 'published';

export type PaymentAppInstallInput = {
  /** length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  app_key: string;
  /** at least 1 item(s); at most 20 item(s) */
  methods: Array<PaymentAppInstallInputMethods>;
  /** length 1 to 200 */
  name: string;
};

export type PaymentAppInstallInputMethods = {
  /** length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  method: string;
  /** how long an order waits for payment; null: no window (never expires); 1 to 2592000; or null; required: a value or null */
  reservation_window_seconds?: number | null | undefined;
};

export type PaymentAppUninstallInput = {
  /** length 1 to 200 */
  app_id: string;
};

export type PaymentAttemptStatus =
  | 'confirming'
  | 'failed'
  | 'open'
  | 'succeeded';

export type PaymentWindowSetInput = {
  /** length 1 to 200 */
  app_id: string;
  /** length 1 to 64; pattern ^[a-z][a-z0-9_]*$ */
  method: string;
  /** 1 to 2592000; or null; required: a value or null */
  reservation_window_seconds?: number | null | undefined;
  /** the store's id or handle; length 1 to 200 */
  store_id: string;
};

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

export type ReadInternalShippingQuoteInput = {
  /** <sku_id>:<qty> lines separated by commas (at most 100, qty 1 to 1000, distinct SKUs); or give lines; length 1 to 8000 */
  items?: string | null | undefined;
  /** the items as a list instead of items, same bounds: 1 to 100 distinct SKUs, qty 1 to 1000 (extension); at least 1 item(s); at most 100 item(s) */
  lines?: Array<ReadInternalShippingQuoteInputLines> | null | undefined;
  /** where the parcel goes; normalized as zones are; length 1 to 32 */
  postal_code: string;
  /** the store's id or handle; length 1 to 200 */
  store_id: string;
};

export type ReadInternalShippingQuoteInputLines = {
  /** 1 to 1000 */
  qty: number;
  /** length 1 to 200 */
  sku_id: string;
};

export type ShipmentStatus =
  | 'delivered'
  | 'dispatched'
  | 'pending';

export type ShippingMethodCreateInput = {
  /** default true */
  active?: boolean | null | undefined;
  /** length 1 to 200; or null */
  carrier_id?: string | null | undefined;
  /** cubic divisor in cm³ per kg (e.g. 6000): volumetric grams = length × width × height × 1000 / divisor; min 1 */
  dimensional_divisor: number;
  /** default delivery */
  kind?: ShippingMethodKind | null | undefined;
  /** length + width + height of the parcel at most; null: no limit; min 1; or null */
  max_dimensions_sum_cm?: number | null | undefined;
  /** height (shortest side) of the parcel at most; null: no limit; min 1; or null */
  max_height_cm?: number | null | undefined;
  /** length (longest side) of the parcel at most; null: no limit; min 1; or null */
  max_length_cm?: number | null | undefined;
  /** actual weight of the parcel at most; null: no limit; min 1; or null */
  max_weight_grams?: number | null | undefined;
  /** width (middle side) of the parcel at most; null: no limit; min 1; or null */
  max_width_cm?: number | null | undefined;
  /** length 1 to 200 */
  name: string;
  /** what the method charges: exactly one of flat_amount and bands; none: the method costs 0 (extension); or null */
  rates?: ShippingMethodCreateInputRates | null | undefined;
  /** calendar days to deliver; null: unknown (no estimated date); 0 to 365; or null */
  transit_days?: number | null | undefined;
  /** the tenant’s zones it serves; none or empty: every zone; at most 1000 item(s); no repeats; each: length 1 to 200 */
  zone_ids?: Array<string> | null | undefined;
};

export type ShippingMethodCreateInputRates = {
  /** 1 to 20 bands by billable weight, up_to_grams strictly ascending; the first band holding the billable weight is charged; above the last band (or with an unknown billable weight) the method is not offered; at least 1 item(s); at most 20 item(s) */
  bands?: Array<ShippingMethodCreateInputRatesBands> | null | undefined;
  /** ISO 4217, upper case: the currency of the amounts; length 3 to 3; pattern ^[A-Z]{3}$ */
  currency: string;
  /** one price whatever the parcel (minor units of currency); 0 to 100000000 */
  flat_amount?: number | null | undefined;
};

export type ShippingMethodCreateInputRatesBands = {
  /** the price of a parcel in this band (minor units of currency); 0 to 100000000 */
  amount: number;
  /** the band holds billable weights up to this many grams, inclusive; 1 to 100000000 */
  up_to_grams: number;
};

export type ShippingMethodKind =
  | 'delivery'
  | 'pickup';

export type ShippingMethodUpdateInput = {
  /** default true */
  active?: boolean | null | undefined;
  /** length 1 to 200; or null */
  carrier_id?: string | null | undefined;
  /** cubic divisor in cm³ per kg (e.g. 6000): volumetric grams = length × width × height × 1000 / divisor; min 1 */
  dimensional_divisor?: number | null | undefined;
  /** default delivery */
  kind?: ShippingMethodKind | null | undefined;
  /** length + width + height of the parcel at most; null: no limit; min 1; or null */
  max_dimensions_sum_cm?: number | null | undefined;
  /** height (shortest side) of the parcel at most; null: no limit; min 1; or null */
  max_height_cm?: number | null | undefined;
  /** length (longest side) of the parcel at most; null: no limit; min 1; or null */
  max_length_cm?: number | null | undefined;
  /** actual weight of the parcel at most; null: no limit; min 1; or null */
  max_weight_grams?: number | null | undefined;
  /** width (middle side) of the parcel at most; null: no limit; min 1; or null */
  max_width_cm?: number | null | undefined;
  /** length 1 to 200 */
  method_id: string;
  /** length 1 to 200 */
  name?: string | null | undefined;
  /** what the method charges: exactly one of flat_amount and bands; none: the method costs 0 (extension); or null */
  rates?: ShippingMethodUpdateInputRates | null | undefined;
  /** calendar days to deliver; null: unknown (no estimated date); 0 to 365; or null */
  transit_days?: number | null | undefined;
  /** the tenant’s zones it serves; none or empty: every zone; at most 1000 item(s); no repeats; each: length 1 to 200 */
  zone_ids?: Array<string> | null | undefined;
};

export type ShippingMethodUpdateInputRates = {
  /** 1 to 20 bands by billable weight, up_to_grams strictly ascending; the first band holding the billable weight is charged; above the last band (or with an unknown billable weight) the method is not offered; at least 1 item(s); at most 20 item(s) */
  bands?: Array<ShippingMethodUpdateInputRatesBands> | null | undefined;
  /** ISO 4217, upper case: the currency of the amounts; length 3 to 3; pattern ^[A-Z]{3}$ */
  currency: string;
  /** one price whatever the parcel (minor units of currency); 0 to 100000000 */
  flat_amount?: number | null | undefined;
};

export type ShippingMethodUpdateInputRatesBands = {
  /** the price of a parcel in this band (minor units of currency); 0 to 100000000 */
  amount: number;
  /** the band holds billable weights up to this many grams, inclusive; 1 to 100000000 */
  up_to_grams: number;
};

export type ShippingRefusalReason =
  | 'above_last_band'
  | 'currency_mismatch'
  | 'dimensions_sum'
  | 'inactive'
  | 'no_zone'
  | 'too_heavy'
  | 'too_long'
  | 'too_tall'
  | 'too_wide'
  | 'unknown_billable_weight'
  | 'unknown_dimensions'
  | 'unknown_weight';

export type ShippingZoneCreateInput = {
  /** length 1 to 200 */
  name: string;
  /** normalized: trimmed, upper case, spaces and hyphens removed; then 1 to 16 letters or digits; length 1 to 32 */
  postal_code_from: string;
  /** normalized: trimmed, upper case, spaces and hyphens removed; then 1 to 16 letters or digits; length 1 to 32 */
  postal_code_to: string;
};

export type TenantStoreCreateInput = {
  /** length 1 to 63; pattern ^[a-z0-9]+(-[a-z0-9]+)*$ */
  handle: string;
  /** length 1 to 120 */
  name: string;
};

export type TenantStoreUpdateInput = {
  guest_checkout_enabled?: boolean | null | undefined;
  /** a host name (stored lower case, without port or trailing dot; at most 200 characters so), unique across tenants; '' clears it (off routing); max length 260 */
  host?: string | null | undefined;
  /** the store's id or handle; length 1 to 200 */
  id: string;
  masked_checkout_enabled?: boolean | null | undefined;
  /** length 1 to 120 */
  name?: string | null | undefined;
  /** an email address, or '' to clear it (falls back to the instance's address); max length 320; pattern ^$|^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$ */
  notification_reply_to?: string | null | undefined;
  /** '' clears it (falls back to the store's name, then the tenant's); max length 120 */
  notification_sender_name?: string | null | undefined;
  /** an unknown key is accepted: the storefront falls back to `default`; length 1 to 100 */
  theme_key?: string | null | undefined;
};

export type WebhookDeliveryStatus =
  | 'delivered'
  | 'failed'
  | 'pending';

export type WebhookSubscriptionCreateInput = {
  /** max length 200 */
  description?: string | null | undefined;
  /** declared event types (see the `webhooks` of /v1/openapi.json); `*` for all; at least 1 item(s); at most 100 item(s); no repeats; each: length 1 to 100 */
  event_types: Array<string>;
  /** deliver the personal fields of payloads (customer email, name…) in clear; needs pii.read to set, or to change the url while set. Default false: masked as in reads without pii.read */
  personal_data?: boolean | null | undefined;
  /** https (http only to a loopback host when WEBHOOK_ALLOW_INSECURE=1); length 1 to 2048 */
  url: string;
};

export type WebhookSubscriptionUpdateInput = {
  /** max length 200; or null */
  description?: string | null | undefined;
  enabled?: boolean | null | undefined;
  /** declared event types (see the `webhooks` of /v1/openapi.json); `*` for all; at least 1 item(s); at most 100 item(s); no repeats; each: length 1 to 100 */
  event_types?: Array<string> | null | undefined;
  /** deliver the personal fields of payloads (customer email, name…) in clear; needs pii.read to set, or to change the url while set. Default false: masked as in reads without pii.read */
  personal_data?: boolean | null | undefined;
  /** length 1 to 200 */
  subscription_id: string;
  /** https (http only to a loopback host when WEBHOOK_ALLOW_INSECURE=1); length 1 to 2048 */
  url?: string | null | undefined;
};

export type WhoamiQueryVariables = Exact<{ [key: string]: never; }>;


export type WhoamiQuery = { read_internal_whoami: { actor_id: string, name: string, scopes: Array<string>, locale: string | null } | null };

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
  fulfilment?: FulfilmentStatus | null | undefined;
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

export type NotificationChannelsQueryVariables = Exact<{ [key: string]: never; }>;


export type NotificationChannelsQuery = { notification_channels: { totalCount: number | null, edges: Array<{ node: { channel_key: string, label: string, notice: string | null, built_in: boolean, required_fields: Array<string>, variant_schema: Array<{ name: string, label: string, required: boolean }>, message_types: Array<{ type_key: string, enabled: boolean, always: boolean }> } }> } | null };

export type NotificationChannelRegisterMutationVariables = Exact<{
  input: NotificationChannelRegisterInput;
}>;


export type NotificationChannelRegisterMutation = { notification_channel_register: { channel_key: string } | null };

export type NotificationChannelSetEnabledMutationVariables = Exact<{
  input: NotificationChannelSetEnabledInput;
}>;


export type NotificationChannelSetEnabledMutation = { notification_channel_set_enabled: { type_key: string, channel_key: string, enabled: boolean } | null };

export type NotificationTemplatePreviewQueryVariables = Exact<{
  channel: string;
  type: string;
  locale: string;
}>;


export type NotificationTemplatePreviewQuery = { notification_channels: { edges: Array<{ node: { channel_key: string, variant_schema: Array<{ name: string, label: string, type: NotificationChannelFieldType, help: string | null, required: boolean, template: boolean, options: Array<{ value: string, label: string }> | null }>, effective_template: { type_key: string, locale: string, level: string, fields: unknown, rendered: unknown } | null } }> } | null };

export type NotificationTemplateSetMutationVariables = Exact<{
  input: NotificationTemplateSetInput;
}>;


export type NotificationTemplateSetMutation = { notification_template_set: { type_key: string, channel_key: string, locale: string } | null };

export type NotificationLogQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  filter?: NotificationFilter | null | undefined;
}>;


export type NotificationLogQuery = { notifications: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, type_key: string, channel_key: string, recipient: string, status: NotificationStatus, attempts: number, last_error: string | null, resent_from: string | null, body_stored: boolean, created_at: string, sent_at: string | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type NotificationResendMutationVariables = Exact<{
  id: string;
}>;


export type NotificationResendMutation = { notification_resend: { notification_id: string, requested: boolean } | null };

export type WebhookSubscriptionsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type WebhookSubscriptionsQuery = { webhook_subscriptions: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, url: string, event_types: Array<string>, description: string | null, enabled: boolean, disabled_reason: string | null, failing_since: string | null, previous_secret_expires_at: string | null, created_at: string, deliveries: Array<{ id: string, event_id: string, event_type: string, status: WebhookDeliveryStatus, attempts: number, last_attempt_at: string | null, last_response_status: number | null, last_error: string | null, created_at: string, delivered_at: string | null }> } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type WebhookCreateMutationVariables = Exact<{
  input: WebhookSubscriptionCreateInput;
}>;


export type WebhookCreateMutation = { webhook_subscription_create: { subscription_id: string, secret: string } | null };

export type WebhookUpdateMutationVariables = Exact<{
  input: WebhookSubscriptionUpdateInput;
}>;


export type WebhookUpdateMutation = { webhook_subscription_update: { id: string, enabled: boolean } | null };

export type WebhookDeleteMutationVariables = Exact<{
  id: string;
}>;


export type WebhookDeleteMutation = { webhook_subscription_delete: { subscription_id: string, deleted: boolean } | null };

export type WebhookRotateSecretMutationVariables = Exact<{
  id: string;
}>;


export type WebhookRotateSecretMutation = { webhook_subscription_rotate_secret: { subscription_id: string, secret: string, previous_secret_expires_at: string } | null };

export type WebhookDeliveryRetryMutationVariables = Exact<{
  id: string;
}>;


export type WebhookDeliveryRetryMutation = { webhook_delivery_retry: { delivery_id: string, status: WebhookDeliveryStatus } | null };

export type AuditLogQueryVariables = Exact<{
  identity: boolean;
  catalog: boolean;
  orders: boolean;
  content: boolean;
  identityInput?: IdentityAuditInput | null | undefined;
  catalogInput?: CatalogAuditInput | null | undefined;
  ordersInput?: OrdersAuditInput | null | undefined;
  contentInput?: ContentAuditInput | null | undefined;
}>;


export type AuditLogQuery = { identity_audit?: { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> } | null, catalog_audit?: { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> } | null, orders_audit?: { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> } | null, content_audit?: { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> } | null };

export type IdentityAuditPageFragment = { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> };

export type CatalogAuditPageFragment = { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> };

export type OrdersAuditPageFragment = { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> };

export type ContentAuditPageFragment = { total: number, items: Array<{ actor_id: string, actor_name: string, operation: string, outcome: string, request_id: string, at: string }> };

export type ApiKeyRotateMutationVariables = Exact<{
  input: IamApiKeyRotateInput;
}>;


export type ApiKeyRotateMutation = { iam_api_key_rotate: { api_key_id: string, token: string, expires_at: string | null, previous_expires_at: string } | null };

export type ShippingZonesListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type ShippingZonesListQuery = { shipping_zones: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, name: string, postal_code_from: string, postal_code_to: string } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type ShippingSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type ShippingSettingsQuery = { shipping_methods: { edges: Array<{ node: { id: string, name: string, kind: ShippingMethodKind, active: boolean, carrier_id: string | null, dimensional_divisor: number, max_weight_grams: number | null, max_length_cm: number | null, max_width_cm: number | null, max_height_cm: number | null, max_dimensions_sum_cm: number | null, transit_days: number | null, zone_ids: Array<string>, rates: { currency: string, flat_amount: number | null, bands: Array<{ up_to_grams: number, amount: number }> | null } | null } }> } | null, shipping_zones: { edges: Array<{ node: { id: string, name: string } }> } | null, stores: { edges: Array<{ node: { id: string, handle: string, name: string } }> } | null };

export type ShippingZoneCreateMutationVariables = Exact<{
  input: ShippingZoneCreateInput;
}>;


export type ShippingZoneCreateMutation = { shipping_zone_create: { zone_id: string } | null };

export type ShippingMethodCreateMutationVariables = Exact<{
  input: ShippingMethodCreateInput;
}>;


export type ShippingMethodCreateMutation = { shipping_method_create: { method_id: string } | null };

export type ShippingMethodUpdateMutationVariables = Exact<{
  input: ShippingMethodUpdateInput;
}>;


export type ShippingMethodUpdateMutation = { shipping_method_update: { id: string } | null };

export type QuoteSkusQueryVariables = Exact<{
  q?: string | null | undefined;
}>;


export type QuoteSkusQuery = { skus: { edges: Array<{ node: { id: string, code: string, name: string | null, currency: string, weight_grams: number | null, product: { title: string } | null } }> } | null };

export type ShippingQuoteQueryVariables = Exact<{
  input: ReadInternalShippingQuoteInput;
}>;


export type ShippingQuoteQuery = { read_internal_shipping_quote: { postal_code: string, currency: string | null, zone_ids: Array<string>, parcel: { weight_grams: number | null, length_cm: number | null, width_cm: number | null, height_cm: number | null }, methods: Array<{ method_id: string, name: string, kind: ShippingMethodKind, billable_weight_grams: number | null, transit_days: number | null, estimated_delivery_date: string | null, shipping_amount: number }>, refused: Array<{ method_id: string, name: string, reason: ShippingRefusalReason }> } | null };

export type PaymentAppsListQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type PaymentAppsListQuery = { payment_apps: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, app_key: string, name: string, installed: boolean, methods: Array<{ method: string, reservation_window_seconds: number | null }>, store_windows: Array<{ store_id: string, method: string, reservation_window_seconds: number }> } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null, stores: { edges: Array<{ node: { id: string, handle: string, name: string } }> } | null };

export type PaymentAppInstallMutationVariables = Exact<{
  input: PaymentAppInstallInput;
}>;


export type PaymentAppInstallMutation = { payment_app_install: { app_id: string } | null };

export type PaymentAppUninstallMutationVariables = Exact<{
  input: PaymentAppUninstallInput;
}>;


export type PaymentAppUninstallMutation = { payment_app_uninstall: { app_id: string, installed: boolean } | null };

export type PaymentWindowSetMutationVariables = Exact<{
  input: PaymentWindowSetInput;
}>;


export type PaymentWindowSetMutation = { payment_window_set: { store_id: string, app_id: string, method: string, reservation_window_seconds: number | null } | null };

export type SettingsStoresQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type SettingsStoresQuery = { stores: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, handle: string, name: string, host: string | null, notification_sender_name: string | null, notification_reply_to: string | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type StoreCreateMutationVariables = Exact<{
  input: TenantStoreCreateInput;
}>;


export type StoreCreateMutation = { tenant_store_create: { id: string } | null };

export type StoreUpdateMutationVariables = Exact<{
  input: TenantStoreUpdateInput;
}>;


export type StoreUpdateMutation = { tenant_store_update: { id: string } | null };

export type SettingsPagesQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
  status?: PageFilterStatus | null | undefined;
}>;


export type SettingsPagesQuery = { pages: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, store_id: string, slug: string, title: string, template_key: string, published: boolean, meta_title: string | null, meta_description: string | null, archived: boolean, updated_at: string, store: { handle: string, name: string, host: string | null } | null } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type PageCreateMutationVariables = Exact<{
  input: ContentPageCreateInput;
}>;


export type PageCreateMutation = { content_page_create: { page_id: string } | null };

export type PageUpdateMutationVariables = Exact<{
  input: ContentPageUpdateInput;
}>;


export type PageUpdateMutation = { content_page_update: { page_id: string, published: boolean } | null };

export type PageArchiveMutationVariables = Exact<{
  id: string;
}>;


export type PageArchiveMutation = { content_page_archive: { page_id: string, archived: boolean } | null };

export type PageUnarchiveMutationVariables = Exact<{
  id: string;
}>;


export type PageUnarchiveMutation = { content_page_unarchive: { page_id: string, archived: boolean } | null };

export type SettingsOperatorsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  last?: number | null | undefined;
  before?: string | null | undefined;
}>;


export type SettingsOperatorsQuery = { operators: { totalCount: number | null, edges: Array<{ cursor: string, node: { id: string, email: string, name: string, role: AdminUserRole, locale: string, status: AdminUserStatus } }>, pageInfo: { hasNextPage: boolean, hasPreviousPage: boolean, startCursor: string | null, endCursor: string | null } } | null };

export type OperatorInviteMutationVariables = Exact<{
  input: AdminUserInviteInput;
}>;


export type OperatorInviteMutation = { admin_user_invite: { admin_user_id: string } | null };

export type OperatorUpdateMutationVariables = Exact<{
  input: AdminUserUpdateInput;
}>;


export type OperatorUpdateMutation = { admin_user_update: { admin_user_id: string, role: AdminUserRole } | null };

export type OperatorDeactivateMutationVariables = Exact<{
  id: string;
}>;


export type OperatorDeactivateMutation = { admin_user_deactivate: { admin_user_id: string, status: AdminUserStatus } | null };

export const OrderPageGapsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrderPageGaps"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Order"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"customer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"phone"}}]}},{"kind":"Field","name":{"kind":"Name","value":"payment_attempts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"payment_attempt_id"}},{"kind":"Field","name":{"kind":"Name","value":"failure_reason"}},{"kind":"Field","name":{"kind":"Name","value":"provider_reference"}},{"kind":"Field","name":{"kind":"Name","value":"orphaned"}},{"kind":"Field","name":{"kind":"Name","value":"payment_app"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"shipments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"tracking_url"}}]}},{"kind":"Field","name":{"kind":"Name","value":"documents"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"document_id"}},{"kind":"Field","name":{"kind":"Name","value":"shipment_id"}},{"kind":"Field","name":{"kind":"Name","value":"file_url"}},{"kind":"Field","name":{"kind":"Name","value":"asset_id"}},{"kind":"Field","name":{"kind":"Name","value":"created_at"}}]}}]}}]} as unknown as DocumentNode<OrderPageGapsFragment, unknown>;
export const ProductPageGapsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ProductPageGaps"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Product"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"custom_fields"}},{"kind":"Field","name":{"kind":"Name","value":"options"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"option_id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"values"}},{"kind":"Field","name":{"kind":"Name","value":"default_value"}},{"kind":"Field","name":{"kind":"Name","value":"position"}}]}},{"kind":"Field","name":{"kind":"Name","value":"media"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"media_id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"provider_key"}},{"kind":"Field","name":{"kind":"Name","value":"alt"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"skus"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"option_values"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"option"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"media"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"media_id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"provider_key"}},{"kind":"Field","name":{"kind":"Name","value":"alt"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"promotional_price"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"unit_amount"}},{"kind":"Field","name":{"kind":"Name","value":"promotional_amount"}}]}}]}}]}}]} as unknown as DocumentNode<ProductPageGapsFragment, unknown>;
export const IdentityAuditPageFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"IdentityAuditPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IdentityAuditResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actor_id"}},{"kind":"Field","name":{"kind":"Name","value":"actor_name"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"request_id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<IdentityAuditPageFragment, unknown>;
export const CatalogAuditPageFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"CatalogAuditPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"CatalogAuditResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actor_id"}},{"kind":"Field","name":{"kind":"Name","value":"actor_name"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"request_id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<CatalogAuditPageFragment, unknown>;
export const OrdersAuditPageFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"OrdersAuditPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"OrdersAuditResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actor_id"}},{"kind":"Field","name":{"kind":"Name","value":"actor_name"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"request_id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<OrdersAuditPageFragment, unknown>;
export const ContentAuditPageFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ContentAuditPage"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ContentAuditResult"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"actor_id"}},{"kind":"Field","name":{"kind":"Name","value":"actor_name"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"request_id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]} as unknown as DocumentNode<ContentAuditPageFragment, unknown>;
export const WhoamiDocument = {"__meta__":{"text":"query Whoami { read_internal_whoami { actor_id locale name scopes } }","hash":"da6ad56749e18e7da7fb09afefd00dcdb7eec43fb01ff0bdf07a09c523914268"}} as unknown as DocumentNode<WhoamiQuery, WhoamiQueryVariables>;
export const RequestLoginCodeDocument = {"__meta__":{"text":"mutation RequestLoginCode($input: AuthLoginCodeRequestInput!) { auth_login_code_request(input: $input) { expires_in_seconds requested } }","hash":"56f521553e4c5fcfa570e020c24c3618491000866861f9ba4fe4a06c6b5dece3"}} as unknown as DocumentNode<RequestLoginCodeMutation, RequestLoginCodeMutationVariables>;
export const ProductsListDocument = {"__meta__":{"text":"query ProductsList($after: String, $before: String, $filter: ProductFilter, $first: SafeInt, $last: SafeInt, $orderBy: ProductOrder) { products( first: $first after: $after last: $last before: $before filter: $filter orderBy: $orderBy ) { edges { cursor node { brand { name } handle id status title updated_at } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"0d9db69023009b24b114100c82ab654a96b54bf377da5a86ba30c0c7f3bbd926"}} as unknown as DocumentNode<ProductsListQuery, ProductsListQueryVariables>;
export const OrdersListDocument = {"__meta__":{"text":"query OrdersList($after: String, $before: String, $first: SafeInt, $fulfilment: FulfilmentStatus, $last: SafeInt, $status: OrderStatus) { orders( first: $first after: $after last: $last before: $before filter: {status: $status, fulfilment: $fulfilment} ) { edges { cursor node { created_at currency fulfilment_status id status store { name } total_amount } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"da8e4c727a5c7296a9a2a8c6a9ef1cdb47449530514acc87ff92c074c4e29fcd"}} as unknown as DocumentNode<OrdersListQuery, OrdersListQueryVariables>;
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
export const NotificationChannelsDocument = {"__meta__":{"text":"query NotificationChannels { notification_channels(first: 100) { edges { node { built_in channel_key label message_types { always enabled type_key } notice required_fields variant_schema { label name required } } } totalCount } }","hash":"494f60ba11dcf48c2dbc6a15f9b8bd030f3bf77d927e5b26ebd6866890786fb8"}} as unknown as DocumentNode<NotificationChannelsQuery, NotificationChannelsQueryVariables>;
export const NotificationChannelRegisterDocument = {"__meta__":{"text":"mutation NotificationChannelRegister($input: NotificationChannelRegisterInput!) { notification_channel_register(input: $input) { channel_key } }","hash":"44e6a612d69a3071fc6b7f74cc7e3debd5bd46106ac2662927de50bd4a125c7b"}} as unknown as DocumentNode<NotificationChannelRegisterMutation, NotificationChannelRegisterMutationVariables>;
export const NotificationChannelSetEnabledDocument = {"__meta__":{"text":"mutation NotificationChannelSetEnabled($input: NotificationChannelSetEnabledInput!) { notification_channel_set_enabled(input: $input) { channel_key enabled type_key } }","hash":"64cf797be84b3d7038dd1007d3398701e188864825b2614c7e880d1328e824aa"}} as unknown as DocumentNode<NotificationChannelSetEnabledMutation, NotificationChannelSetEnabledMutationVariables>;
export const NotificationTemplatePreviewDocument = {"__meta__":{"text":"query NotificationTemplatePreview($channel: String!, $locale: String!, $type: String!) { notification_channels(first: 1, filter: {key: $channel}) { edges { node { channel_key effective_template(type_key: $type, locale: $locale) { fields level locale rendered type_key } variant_schema { help label name options { label value } required template type } } } } }","hash":"17a0d2e67ab1121fa14659a0199fce1f2f7c013993d63b435e48ea861a26bdf7"}} as unknown as DocumentNode<NotificationTemplatePreviewQuery, NotificationTemplatePreviewQueryVariables>;
export const NotificationTemplateSetDocument = {"__meta__":{"text":"mutation NotificationTemplateSet($input: NotificationTemplateSetInput!) { notification_template_set(input: $input) { channel_key locale type_key } }","hash":"075a5f5f34ac7624e8d55fbc57aafa9cede98cc5006c83683b3fceb51723d155"}} as unknown as DocumentNode<NotificationTemplateSetMutation, NotificationTemplateSetMutationVariables>;
export const NotificationLogDocument = {"__meta__":{"text":"query NotificationLog($after: String, $before: String, $filter: NotificationFilter, $first: SafeInt, $last: SafeInt) { notifications( first: $first after: $after last: $last before: $before filter: $filter ) { edges { cursor node { attempts body_stored channel_key created_at id last_error recipient resent_from sent_at status type_key } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"4d6198913407a5c95c1f9238bc0b619e3c2cd926c26a5d09fae1bd74be43af0d"}} as unknown as DocumentNode<NotificationLogQuery, NotificationLogQueryVariables>;
export const NotificationResendDocument = {"__meta__":{"text":"mutation NotificationResend($id: ID!) { notification_resend(input: {notification_id: $id}) { notification_id requested } }","hash":"3431d4f6586dd548bcc8d1002f4ef006640e7c7ea742b5de0324e94a0f73538b"}} as unknown as DocumentNode<NotificationResendMutation, NotificationResendMutationVariables>;
export const WebhookSubscriptionsDocument = {"__meta__":{"text":"query WebhookSubscriptions($after: String, $before: String, $first: SafeInt, $last: SafeInt) { webhook_subscriptions( first: $first after: $after last: $last before: $before ) { edges { cursor node { created_at deliveries { attempts created_at delivered_at event_id event_type id last_attempt_at last_error last_response_status status } description disabled_reason enabled event_types failing_since id previous_secret_expires_at url } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"e19a9fd7de3ccb8c55f3fbc16a1a8ea21de788ca819daf0d919b71a4b04f6070"}} as unknown as DocumentNode<WebhookSubscriptionsQuery, WebhookSubscriptionsQueryVariables>;
export const WebhookCreateDocument = {"__meta__":{"text":"mutation WebhookCreate($input: WebhookSubscriptionCreateInput!) { webhook_subscription_create(input: $input) { secret subscription_id } }","hash":"cacea940691b229a60696ac2946b2d464ce441cbfaa636de139f237883ae0999"}} as unknown as DocumentNode<WebhookCreateMutation, WebhookCreateMutationVariables>;
export const WebhookUpdateDocument = {"__meta__":{"text":"mutation WebhookUpdate($input: WebhookSubscriptionUpdateInput!) { webhook_subscription_update(input: $input) { enabled id } }","hash":"2199aa6b4898a50c5c0b735579bd8dba1168a64e315c422caad414d75b848155"}} as unknown as DocumentNode<WebhookUpdateMutation, WebhookUpdateMutationVariables>;
export const WebhookDeleteDocument = {"__meta__":{"text":"mutation WebhookDelete($id: ID!) { webhook_subscription_delete(input: {subscription_id: $id}) { deleted subscription_id } }","hash":"6533cc4afb6d5a78b4ad66245c1354b6d45edf020f2e996371110bd452c3fad1"}} as unknown as DocumentNode<WebhookDeleteMutation, WebhookDeleteMutationVariables>;
export const WebhookRotateSecretDocument = {"__meta__":{"text":"mutation WebhookRotateSecret($id: ID!) { webhook_subscription_rotate_secret(input: {subscription_id: $id}) { previous_secret_expires_at secret subscription_id } }","hash":"4a543a73c609044f4f7cff4f74feded2a8a221837d5fc1f0bcf1047ebb8791a4"}} as unknown as DocumentNode<WebhookRotateSecretMutation, WebhookRotateSecretMutationVariables>;
export const WebhookDeliveryRetryDocument = {"__meta__":{"text":"mutation WebhookDeliveryRetry($id: ID!) { webhook_delivery_retry(input: {delivery_id: $id}) { delivery_id status } }","hash":"321c37b3b292a2d80d79c50efb12346f0bdc4022d74578615d175b1f3d3d7a6b"}} as unknown as DocumentNode<WebhookDeliveryRetryMutation, WebhookDeliveryRetryMutationVariables>;
export const AuditLogDocument = {"__meta__":{"text":"fragment CatalogAuditPage on CatalogAuditResult { items { actor_id actor_name at operation outcome request_id } total } fragment ContentAuditPage on ContentAuditResult { items { actor_id actor_name at operation outcome request_id } total } fragment IdentityAuditPage on IdentityAuditResult { items { actor_id actor_name at operation outcome request_id } total } fragment OrdersAuditPage on OrdersAuditResult { items { actor_id actor_name at operation outcome request_id } total } query AuditLog($catalog: Boolean!, $catalogInput: CatalogAuditInput, $content: Boolean!, $contentInput: ContentAuditInput, $identity: Boolean!, $identityInput: IdentityAuditInput, $orders: Boolean!, $ordersInput: OrdersAuditInput) { catalog_audit(input: $catalogInput) @include(if: $catalog) { ...CatalogAuditPage } content_audit(input: $contentInput) @include(if: $content) { ...ContentAuditPage } identity_audit(input: $identityInput) @include(if: $identity) { ...IdentityAuditPage } orders_audit(input: $ordersInput) @include(if: $orders) { ...OrdersAuditPage } }","hash":"776c1c2c011e6eb27eddd80170da7dcc07c2ec50aa58a455ebdb6768d2ce7528"}} as unknown as DocumentNode<AuditLogQuery, AuditLogQueryVariables>;
export const ApiKeyRotateDocument = {"__meta__":{"text":"mutation ApiKeyRotate($input: IamApiKeyRotateInput!) { iam_api_key_rotate(input: $input) { api_key_id expires_at previous_expires_at token } }","hash":"7676626893b09df8780ab60ce4015b8688422de7498b8990f6353438e4efd8c3"}} as unknown as DocumentNode<ApiKeyRotateMutation, ApiKeyRotateMutationVariables>;
export const ShippingZonesListDocument = {"__meta__":{"text":"query ShippingZonesList($after: String, $before: String, $first: SafeInt, $last: SafeInt) { shipping_zones( first: $first after: $after last: $last before: $before orderBy: {field: name, direction: ASC} ) { edges { cursor node { id name postal_code_from postal_code_to } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"7558321b455d6833d68c5dd6b0f91a8395934be9d3ef3cf46d57506c9742082e"}} as unknown as DocumentNode<ShippingZonesListQuery, ShippingZonesListQueryVariables>;
export const ShippingSettingsDocument = {"__meta__":{"text":"query ShippingSettings { shipping_methods(first: 100, orderBy: {field: name, direction: ASC}) { edges { node { active carrier_id dimensional_divisor id kind max_dimensions_sum_cm max_height_cm max_length_cm max_weight_grams max_width_cm name rates { bands { amount up_to_grams } currency flat_amount } transit_days zone_ids } } } shipping_zones(first: 100, orderBy: {field: name, direction: ASC}) { edges { node { id name } } } stores(first: 100) { edges { node { handle id name } } } }","hash":"b2ea9fb0f7c870dbc8f6418861dae3d63eae67c2e6a295faca8f0a107a42bdf2"}} as unknown as DocumentNode<ShippingSettingsQuery, ShippingSettingsQueryVariables>;
export const ShippingZoneCreateDocument = {"__meta__":{"text":"mutation ShippingZoneCreate($input: ShippingZoneCreateInput!) { shipping_zone_create(input: $input) { zone_id } }","hash":"2d2778a448a98474769f3813d4b127ef7db4468f72b6bf63ebc499350f57b043"}} as unknown as DocumentNode<ShippingZoneCreateMutation, ShippingZoneCreateMutationVariables>;
export const ShippingMethodCreateDocument = {"__meta__":{"text":"mutation ShippingMethodCreate($input: ShippingMethodCreateInput!) { shipping_method_create(input: $input) { method_id } }","hash":"52bf809a4f4d987afb45f3023322a872dd285daeb4883b86cb9b19f9f6a7e227"}} as unknown as DocumentNode<ShippingMethodCreateMutation, ShippingMethodCreateMutationVariables>;
export const ShippingMethodUpdateDocument = {"__meta__":{"text":"mutation ShippingMethodUpdate($input: ShippingMethodUpdateInput!) { shipping_method_update(input: $input) { id } }","hash":"517cb2289ce36df96ca4a3410fe57eda6e29bd4757510733fbac9aed3867f4c0"}} as unknown as DocumentNode<ShippingMethodUpdateMutation, ShippingMethodUpdateMutationVariables>;
export const QuoteSkusDocument = {"__meta__":{"text":"query QuoteSkus($q: String) { skus(first: 20, filter: {q: $q}) { edges { node { code currency id name product { title } weight_grams } } } }","hash":"fc8172eb4e19b95c82a84d1e449eff4d3caae636050a0efd1cee8278308fa778"}} as unknown as DocumentNode<QuoteSkusQuery, QuoteSkusQueryVariables>;
export const ShippingQuoteDocument = {"__meta__":{"text":"query ShippingQuote($input: ReadInternalShippingQuoteInput!) { read_internal_shipping_quote(input: $input) { currency methods { billable_weight_grams estimated_delivery_date kind method_id name shipping_amount transit_days } parcel { height_cm length_cm weight_grams width_cm } postal_code refused { method_id name reason } zone_ids } }","hash":"4536c7272a7ee25331319de84f04c4714a0d32c8289ab6ef0d3691171060c04f"}} as unknown as DocumentNode<ShippingQuoteQuery, ShippingQuoteQueryVariables>;
export const PaymentAppsListDocument = {"__meta__":{"text":"query PaymentAppsList($after: String, $before: String, $first: SafeInt, $last: SafeInt) { payment_apps( first: $first after: $after last: $last before: $before orderBy: {field: name, direction: ASC} ) { edges { cursor node { app_key id installed methods { method reservation_window_seconds } name store_windows { method reservation_window_seconds store_id } } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } stores(first: 100) { edges { node { handle id name } } } }","hash":"928d4d1b05c09377e017283e8bb62bbe9cc99241894ed363d3d19ee0e249a31f"}} as unknown as DocumentNode<PaymentAppsListQuery, PaymentAppsListQueryVariables>;
export const PaymentAppInstallDocument = {"__meta__":{"text":"mutation PaymentAppInstall($input: PaymentAppInstallInput!) { payment_app_install(input: $input) { app_id } }","hash":"b1588c7a649aa0c8af0a9098d8dfbae39f7a13ec4bf7ac7378fef631e8aa1e0c"}} as unknown as DocumentNode<PaymentAppInstallMutation, PaymentAppInstallMutationVariables>;
export const PaymentAppUninstallDocument = {"__meta__":{"text":"mutation PaymentAppUninstall($input: PaymentAppUninstallInput!) { payment_app_uninstall(input: $input) { app_id installed } }","hash":"a0c7faaf3f574bd87241163d52556566951f746babf134b8adcc1063a712659a"}} as unknown as DocumentNode<PaymentAppUninstallMutation, PaymentAppUninstallMutationVariables>;
export const PaymentWindowSetDocument = {"__meta__":{"text":"mutation PaymentWindowSet($input: PaymentWindowSetInput!) { payment_window_set(input: $input) { app_id method reservation_window_seconds store_id } }","hash":"011b41a55a333602302595760a9d1b45b17f80802501ea70b03c642867a32954"}} as unknown as DocumentNode<PaymentWindowSetMutation, PaymentWindowSetMutationVariables>;
export const SettingsStoresDocument = {"__meta__":{"text":"query SettingsStores($after: String, $before: String, $first: SafeInt, $last: SafeInt) { stores(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { handle host id name notification_reply_to notification_sender_name } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"35c1d31200f279f836e3c8a6e0fadd22e4c5f6ee82a65f97193ae0a0694180a6"}} as unknown as DocumentNode<SettingsStoresQuery, SettingsStoresQueryVariables>;
export const StoreCreateDocument = {"__meta__":{"text":"mutation StoreCreate($input: TenantStoreCreateInput!) { tenant_store_create(input: $input) { id } }","hash":"3fc05cc6d0c8feb3d920fe9ae8c43fab95d7cf003a09ccf4f600f12f6276a3de"}} as unknown as DocumentNode<StoreCreateMutation, StoreCreateMutationVariables>;
export const StoreUpdateDocument = {"__meta__":{"text":"mutation StoreUpdate($input: TenantStoreUpdateInput!) { tenant_store_update(input: $input) { id } }","hash":"4382fcd4dcdb395306c88a526e40c2dcc54c929bc07fe442bbc5aee5d4f9dc09"}} as unknown as DocumentNode<StoreUpdateMutation, StoreUpdateMutationVariables>;
export const SettingsPagesDocument = {"__meta__":{"text":"query SettingsPages($after: String, $before: String, $first: SafeInt, $last: SafeInt, $status: PageFilterStatus) { pages( first: $first after: $after last: $last before: $before filter: {status: $status} ) { edges { cursor node { archived id meta_description meta_title published slug store { handle host name } store_id template_key title updated_at } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"affa0621d58735b7761bc8be4f181da80af72f57f697fec5076b6f4c8b531a77"}} as unknown as DocumentNode<SettingsPagesQuery, SettingsPagesQueryVariables>;
export const PageCreateDocument = {"__meta__":{"text":"mutation PageCreate($input: ContentPageCreateInput!) { content_page_create(input: $input) { page_id } }","hash":"3acaff0f828d802edb6abfc20d046d03f21e5e1cead30363d3298a83c94f8231"}} as unknown as DocumentNode<PageCreateMutation, PageCreateMutationVariables>;
export const PageUpdateDocument = {"__meta__":{"text":"mutation PageUpdate($input: ContentPageUpdateInput!) { content_page_update(input: $input) { page_id published } }","hash":"aa74149aae2b7b27dedbc5591411ac31243fc577faa3ab4477d39f7e1aeb2cfc"}} as unknown as DocumentNode<PageUpdateMutation, PageUpdateMutationVariables>;
export const PageArchiveDocument = {"__meta__":{"text":"mutation PageArchive($id: ID!) { content_page_archive(input: {page_id: $id}) { archived page_id } }","hash":"a145af3e47bc7c205c24a57d5c614b5fc60e8f65a70b15c6c4ebab9822e56e76"}} as unknown as DocumentNode<PageArchiveMutation, PageArchiveMutationVariables>;
export const PageUnarchiveDocument = {"__meta__":{"text":"mutation PageUnarchive($id: ID!) { content_page_unarchive(input: {page_id: $id}) { archived page_id } }","hash":"35bbbb76e44bd793f5ee901c4cdda6bf728dd3367942840d9e9ab62b4c696c6f"}} as unknown as DocumentNode<PageUnarchiveMutation, PageUnarchiveMutationVariables>;
export const SettingsOperatorsDocument = {"__meta__":{"text":"query SettingsOperators($after: String, $before: String, $first: SafeInt, $last: SafeInt) { operators(first: $first, after: $after, last: $last, before: $before) { edges { cursor node { email id locale name role status } } pageInfo { endCursor hasNextPage hasPreviousPage startCursor } totalCount } }","hash":"270757e3aabe8dda055ea25a0f6ae88d931f606a86b67f46a47db4acde06c7aa"}} as unknown as DocumentNode<SettingsOperatorsQuery, SettingsOperatorsQueryVariables>;
export const OperatorInviteDocument = {"__meta__":{"text":"mutation OperatorInvite($input: AdminUserInviteInput!) { admin_user_invite(input: $input) { admin_user_id } }","hash":"69e111806edff97779996f2a28d52c03500020b0a77b3d736573c561458cee63"}} as unknown as DocumentNode<OperatorInviteMutation, OperatorInviteMutationVariables>;
export const OperatorUpdateDocument = {"__meta__":{"text":"mutation OperatorUpdate($input: AdminUserUpdateInput!) { admin_user_update(input: $input) { admin_user_id role } }","hash":"4da5e42012ced17af70c0f388efe7585a6ec6dbf5e5c9bac570892877a25c411"}} as unknown as DocumentNode<OperatorUpdateMutation, OperatorUpdateMutationVariables>;
export const OperatorDeactivateDocument = {"__meta__":{"text":"mutation OperatorDeactivate($id: ID!) { admin_user_deactivate(input: {admin_user_id: $id}) { admin_user_id status } }","hash":"9eff888f19f454b6456e4a06ef67f3e147159399646d79893e0a84b3580f5fc6"}} as unknown as DocumentNode<OperatorDeactivateMutation, OperatorDeactivateMutationVariables>;