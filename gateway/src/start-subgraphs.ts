import { catalog, catalogSkus } from '@backoffice/catalog';
import { content, mailerFromEnv, vaultFromEnv } from '@backoffice/content';
import { identity, loginCodeHandoff, storeDirectoryOf, storeSendersOf, webhookSettings } from '@backoffice/identity';
import { acceptReported, orders, type PaymentVerifier } from '@backoffice/orders';
import { SubgraphRuntime, type SubgraphSettings } from '@backoffice/platform';
import { EVENTS, SUBGRAPHS } from './subgraphs';

/**
 * Starts every subgraph in this process, each given its ports at construction from those started
 * before it: identity first, since the others reach it (in process) for what it owns, such as stores.
 */
export async function startSubgraphs(settings: SubgraphSettings, plugged: { payments?: PaymentVerifier } = {}): Promise<Map<string, SubgraphRuntime>> {
  const started = new Map<string, SubgraphRuntime>();
  const start = async <R extends SubgraphRuntime>(runtime: R): Promise<R> => {
    started.set(runtime.definition.name, await runtime.start());
    return runtime;
  };
  const identityRuntime = await start(
    new SubgraphRuntime(identity, { ...settings, ports: { webhooks: webhookSettings([...EVENTS.values()].map((entry) => entry.event)) } }),
  );
  // Identity's directory: remembered while it hears store changes (every process's, at once).
  const stores = storeDirectoryOf(identityRuntime);
  const catalogRuntime = await start(new SubgraphRuntime(catalog, { ...settings, ports: { stores } }));
  await start(
    new SubgraphRuntime(orders, {
      ...settings,
      ports: { catalog: catalogSkus(catalogRuntime.dataSource), stores, payments: plugged.payments ?? acceptReported },
    }),
  );
  await start(
    new SubgraphRuntime(content, {
      ...settings,
      // Mail: the sender settings and login codes are identity's, asked in process; the transport from the environment.
      ports: {
        stores,
        vault: vaultFromEnv(),
        senders: storeSendersOf(identityRuntime.dataSource),
        loginCodes: loginCodeHandoff(identityRuntime),
        mail: mailerFromEnv(),
      },
    }),
  );
  // A subgraph added to SUBGRAPHS must be given its ports here too.
  const missing = SUBGRAPHS.filter((s) => !started.has(s.name)).map((s) => s.name);
  if (missing.length) throw new Error(`subgraphs not started in process: ${missing.join(', ')}`);
  return started;
}
