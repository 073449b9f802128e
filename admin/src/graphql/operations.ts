// The admin's documents, typed, as sent: each one's text is the trusted documents' manifest entry.
// They are written in documents.graphql and generated into src/gql/ by `npm run generate`.
import {
  AdjustStockDocument,
  AttachMediaDocument,
  AuthMethodsDocument,
  ApiKeyCreateDocument,
  ApiKeyRevokeDocument,
  ApiKeysListDocument,
  CreateOptionDocument,
  CreateProductDocument,
  CreateSkuDocument,
  OrderCancelDocument,
  OrderDocumentAttachDocument,
  OrderMarkPaidDocument,
  OrderPageDocument,
  OrderPaymentConfirmDocument,
  OrdersListDocument,
  ProductChoicesDocument,
  ProductPageDocument,
  ProductsListDocument,
  PublishProductDocument,
  RequestLoginCodeDocument,
  SetPromotionDocument,
  ShipmentDeliverDocument,
  ShipmentDispatchDocument,
  ShipmentSetTrackingDocument,
  ShipmentSplitDocument,
  UnpublishProductDocument,
  UpdateProductDocument,
  UpdateSkuDocument,
  WhoamiDocument,
  SettingsStoresDocument,
  StoreCreateDocument,
  StoreUpdateDocument,
  SettingsPagesDocument,
  PageCreateDocument,
  PageUpdateDocument,
  PageArchiveDocument,
  PageUnarchiveDocument,
  SettingsOperatorsDocument,
  OperatorInviteDocument,
  OperatorUpdateDocument,
  OperatorDeactivateDocument,
} from '../gql/graphql';
import { trusted } from './trusted';

export const Whoami = trusted(WhoamiDocument);
export const RequestLoginCode = trusted(RequestLoginCodeDocument);
export const ProductsList = trusted(ProductsListDocument);
export const OrdersList = trusted(OrdersListDocument);
export const OrderPage = trusted(OrderPageDocument);
export const ProductPage = trusted(ProductPageDocument);
export const ProductChoices = trusted(ProductChoicesDocument);
export const CreateProduct = trusted(CreateProductDocument);
export const UpdateProduct = trusted(UpdateProductDocument);
export const PublishProduct = trusted(PublishProductDocument);
export const UnpublishProduct = trusted(UnpublishProductDocument);
export const CreateSku = trusted(CreateSkuDocument);
export const UpdateSku = trusted(UpdateSkuDocument);
export const AdjustStock = trusted(AdjustStockDocument);
export const OrderMarkPaid = trusted(OrderMarkPaidDocument);
export const OrderCancel = trusted(OrderCancelDocument);
export const ShipmentSplit = trusted(ShipmentSplitDocument);
export const ShipmentSetTracking = trusted(ShipmentSetTrackingDocument);
export const ShipmentDispatch = trusted(ShipmentDispatchDocument);
export const ShipmentDeliver = trusted(ShipmentDeliverDocument);
export const ApiKeysList = trusted(ApiKeysListDocument);
export const ApiKeyCreate = trusted(ApiKeyCreateDocument);
export const ApiKeyRevoke = trusted(ApiKeyRevokeDocument);

// Settings → Stores, Institutional pages, Operators (settings-stores.graphql).
export const SettingsStores = trusted(SettingsStoresDocument);
export const StoreCreate = trusted(StoreCreateDocument);
export const StoreUpdate = trusted(StoreUpdateDocument);
export const SettingsPages = trusted(SettingsPagesDocument);
export const PageCreate = trusted(PageCreateDocument);
export const PageUpdate = trusted(PageUpdateDocument);
export const PageArchive = trusted(PageArchiveDocument);
export const PageUnarchive = trusted(PageUnarchiveDocument);
export const SettingsOperators = trusted(SettingsOperatorsDocument);
export const OperatorInvite = trusted(OperatorInviteDocument);
export const OperatorUpdate = trusted(OperatorUpdateDocument);
export const OperatorDeactivate = trusted(OperatorDeactivateDocument);
export * from './settings-shipping';
export * from './settings-notifications';
// The order page's and product editor's later parts (order-product-gaps.graphql).
export const OrderPaymentConfirm = trusted(OrderPaymentConfirmDocument);
export const OrderDocumentAttach = trusted(OrderDocumentAttachDocument);
export const AuthMethods = trusted(AuthMethodsDocument);
export const CreateOption = trusted(CreateOptionDocument);
export const AttachMedia = trusted(AttachMediaDocument);
export const SetPromotion = trusted(SetPromotionDocument);
