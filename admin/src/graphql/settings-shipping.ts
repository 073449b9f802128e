// Settings → Shipping and Payments: their documents (settings-shipping.graphql), typed, as sent (see operations.ts).
import {
  PaymentAppInstallDocument,
  PaymentAppsListDocument,
  PaymentAppUninstallDocument,
  PaymentWindowSetDocument,
  QuoteSkusDocument,
  ShippingMethodCreateDocument,
  ShippingMethodUpdateDocument,
  ShippingQuoteDocument,
  ShippingSettingsDocument,
  ShippingZoneCreateDocument,
  ShippingZonesListDocument,
} from '../gql/graphql';
import { trusted } from './trusted';

export const ShippingZonesList = trusted(ShippingZonesListDocument);
export const ShippingSettings = trusted(ShippingSettingsDocument);
export const ShippingZoneCreate = trusted(ShippingZoneCreateDocument);
export const ShippingMethodCreate = trusted(ShippingMethodCreateDocument);
export const ShippingMethodUpdate = trusted(ShippingMethodUpdateDocument);
export const QuoteSkus = trusted(QuoteSkusDocument);
export const ShippingQuote = trusted(ShippingQuoteDocument);
export const PaymentAppsList = trusted(PaymentAppsListDocument);
export const PaymentAppInstall = trusted(PaymentAppInstallDocument);
export const PaymentAppUninstall = trusted(PaymentAppUninstallDocument);
export const PaymentWindowSet = trusted(PaymentWindowSetDocument);
