import type { WebhookSettings } from './domain/webhook-settings';
import { operationDefiner, port, type PortsOf } from '@backoffice/platform';

/** What identity needs from the deployment, given when it is started. */
export const identityPorts = {
  webhooks: port<WebhookSettings>('the key sealing webhook secrets, where deliveries may go, and the event catalog subscriptions choose from'),
};

export type IdentityPorts = PortsOf<typeof identityPorts>;

/** `defineOperation` for identity: handlers get `call.ports` as IdentityPorts. */
export const defineIdentityOperation = operationDefiner(identityPorts);
