/**
 * Where subgraphs run as separate processes are reached: `<NAME>_URL` (`IDENTITY_URL`,
 * `CATALOG_URL`, `ORDERS_URL`, `CONTENT_URL`), each a base URL (`http://catalog:4002`, no `/graphql`).
 * All are required: a missing one is refused at start, naming it, rather than guessed.
 * Imported by the documented Hive Gateway configuration too, so it depends on nothing.
 */
export function subgraphBaseUrls(names: readonly string[], env: Record<string, string | undefined> = process.env): Record<string, string> {
  const variable = (name: string) => `${name.toUpperCase()}_URL`;
  const missing = names.map(variable).filter((v) => !env[v]);
  if (missing.length) {
    throw new Error(`subgraphs run elsewhere: set ${missing.join(', ')} (each subgraph's base URL, e.g. http://${names[0]}:4001)`);
  }
  return Object.fromEntries(names.map((name) => [name, (env[variable(name)] ?? '').replace(/\/+$/, '')]));
}
