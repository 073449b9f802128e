// The documents of Settings → Notifications, Developers → Webhooks and Audit log, and key rotation, typed,
// as sent (written in settings-notifications.graphql); operations.ts re-exports them with the others.
import {
  ApiKeyRotateDocument,
  AuditLogDocument,
  NotificationChannelRegisterDocument,
  NotificationChannelSetEnabledDocument,
  NotificationChannelsDocument,
  NotificationLogDocument,
  NotificationResendDocument,
  NotificationTemplatePreviewDocument,
  NotificationTemplateSetDocument,
  WebhookCreateDocument,
  WebhookDeleteDocument,
  WebhookDeliveryRetryDocument,
  WebhookRotateSecretDocument,
  WebhookSubscriptionsDocument,
  WebhookUpdateDocument,
} from '../gql/graphql';
import { trusted } from './trusted';

export const NotificationChannels = trusted(NotificationChannelsDocument);
export const NotificationChannelRegister = trusted(NotificationChannelRegisterDocument);
export const NotificationChannelSetEnabled = trusted(NotificationChannelSetEnabledDocument);
export const NotificationTemplatePreview = trusted(NotificationTemplatePreviewDocument);
export const NotificationTemplateSet = trusted(NotificationTemplateSetDocument);
export const NotificationLog = trusted(NotificationLogDocument);
export const NotificationResend = trusted(NotificationResendDocument);
export const WebhookSubscriptions = trusted(WebhookSubscriptionsDocument);
export const WebhookCreate = trusted(WebhookCreateDocument);
export const WebhookUpdate = trusted(WebhookUpdateDocument);
export const WebhookDelete = trusted(WebhookDeleteDocument);
export const WebhookRotateSecret = trusted(WebhookRotateSecretDocument);
export const WebhookDeliveryRetry = trusted(WebhookDeliveryRetryDocument);
export const AuditLog = trusted(AuditLogDocument);
export const ApiKeyRotate = trusted(ApiKeyRotateDocument);
