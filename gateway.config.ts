/**
 * Hive Gateway in front of the subgraphs run as separate processes (docs/routers.md):
 * `npx hive-gateway supergraph supergraph.graphql` in this folder loads this file. It uses the
 * committed supergraph unchanged: each subgraph's address comes from IDENTITY_URL, CATALOG_URL,
 * ORDERS_URL and CONTENT_URL (base URLs, as the gateway's GATEWAY_ONLY mode takes them). Plain
 * objects (Hive's `defineConfig` only types them), so nothing here needs Hive's type declarations.
 */
import { rateHeadersToClient } from './gateway/src/router-headers';
import { subgraphBaseUrls } from './gateway/src/subgraph-urls';

const urls = subgraphBaseUrls(['identity', 'catalog', 'orders', 'content']);

export const gatewayConfig = {
  supergraph: './supergraph.graphql',
  transportEntries: {
    ...Object.fromEntries(Object.entries(urls).map(([name, base]) => [name, { location: `${base}/graphql` }])),
    // Hive merges identical queries in flight into one subgraph fetch by default: each client request
    // must reach the subgraphs, be charged and be audited as it is at this project's gateway.
    '*.http': { options: { deduplicateInflightRequests: false } },
  },
  propagateHeaders: {
    fromClientToSubgraphs: ({ request, context }: { request: Request; context: unknown }) => ({
      // What the subgraphs authenticate.
      authorization: request.headers.get('authorization'),
      // Only with TRUST_PROXY on the subgraphs: the address the gateway saw (under Node's HTTP server).
      'x-forwarded-for': (context as { req?: { socket?: { remoteAddress?: string } } }).req?.socket?.remoteAddress,
    }),
    // The subgraphs' rate headers back to the client: one value, the lowest remaining (each response
    // gives the merge so far, and with deduplicateHeaders the last one given is sent).
    deduplicateHeaders: true,
    fromSubgraphsToClient: rateHeadersToClient(),
  },
};
