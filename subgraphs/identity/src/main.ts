import { catalog } from '@backoffice/catalog';
import { content } from '@backoffice/content';
import { orders } from '@backoffice/orders';
import { runStandalone, webhookSettings } from '@backoffice/platform';
import { authenticatorOf, identity, resolveStore } from './index';

// The event catalog webhook subscriptions choose from: every subgraph's declarations (code, not tables).
const eventTypes = [identity, catalog, orders, content].flatMap((subgraph) => subgraph.events.map((event) => event.name));

/**
 * Identity alone, with the internal endpoints a gateway (or another subgraph) in another process
 * calls. A bearer a router forwards is authenticated in process, by the same remembered credentials.
 */
void runStandalone(
  identity,
  (runtime) => ({
    authenticate: async (body) => ({ actor: await authenticatorOf(runtime).authenticate(String(body.token ?? '')) }),
    store: async (body) => ({ store: await resolveStore(runtime.dataSource, String(body.ref ?? '')) }),
    audit: async (body) => {
      runtime.audit.record(body as never);
      return { recorded: true };
    },
  }),
  { webhooks: webhookSettings(eventTypes) },
  (runtime) => {
    const authenticator = authenticatorOf(runtime);
    return (token) => authenticator.authenticate(token);
  },
);
