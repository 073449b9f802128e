import type { LoginCodeHandoff, StoreDirectory, StoreSenders } from '@backoffice/contracts';
import type { Vault } from './domain/vault';
import { operationDefiner, port, type PortsOf } from '@backoffice/platform';
import type { Mailer } from './domain/mailer';

/** What content needs from outside itself. */
export const contentPorts = {
  stores: port<StoreDirectory>('which tenant a store belongs to: identity owns stores, content asks'),
  vault: port<Vault>("seals extension credentials (VAULT_KEY): the deployment's key, given at start"),
  senders: port<StoreSenders>("a store's sender name and reply-to, its name and its tenant's (identity owns stores): the From and Reply-To of its mail"),
  loginCodes: port<LoginCodeHandoff>("opens a login code for its mail (identity's handoff, in identity's process); the code is never in an event"),
  mail: port<Mailer>('how mail leaves: SMTP (SMTP_URL, or SMTP_HOST/PORT/USER/PASSWORD) or .eml files under DATA_DIR/mail; MAIL_FROM'),
};

export type ContentPorts = PortsOf<typeof contentPorts>;

export const defineContentOperation = operationDefiner(contentPorts);
