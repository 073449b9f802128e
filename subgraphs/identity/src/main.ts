import { EVENT_CATALOG } from '@backoffice/contracts';
import { runStandalone, type AuditRow } from '@backoffice/platform';
import { webhookSettings } from './domain/webhook-settings';
import { authenticatorOf, identity, loginCodeHandoffOf, resolveStore, storeSendersOf } from './index';

/**
 * Identity alone, with the internal endpoints a gateway (or another subgraph) in another process
 * calls. A bearer a router forwards is authenticated in process, by the same remembered credentials.
 */
void runStandalone(
  identity,
  (runtime) => ({
    authenticate: async (body) => ({ actor: await authenticatorOf(runtime).authenticate(String(body.token ?? '')) }),
    store: async (body) => ({ store: await resolveStore(runtime.dataSource, String(body.ref ?? '')) }),
    // For content's mail in its own process: a store's sender settings, and a login code to mail.
    store_sender: async (body) => ({ sender: await storeSendersOf(runtime.dataSource).sender(String(body.store_id ?? '')) }),
    login_code: async (body) => ({ login_code: await loginCodeHandoffOf(runtime.dataSource).open(String(body.login_code_id ?? '')) }),
    audit: async (body) => {
      // Sound: only a gateway holding the shared secret reaches this route, sending an AuditRow it built.
      runtime.audit.record(body as unknown as AuditRow);
      return { recorded: true };
    },
  }),
  // The event catalog webhook subscriptions choose from: every subgraph's, generated into the contracts.
  { webhooks: webhookSettings(EVENT_CATALOG) },
  (runtime) => {
    const authenticator = authenticatorOf(runtime);
    return (token) => authenticator.authenticate(token);
  },
);
