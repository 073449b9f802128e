/**
 * A port: something a subgraph needs from outside itself (what another subgraph owns, reached in
 * process or over HTTP), given when it is started. `type` is never set: it only carries `T`.
 */
export interface Port<T> {
  readonly description: string;
  readonly type?: T;
}

/** Declares a port: `{ stores: port<StoreDirectory>('which tenant a store belongs to') }`. */
export function port<T>(description: string): Port<T> {
  return { description };
}

/** The declarations of a subgraph's ports, from the values its handlers get. */
export type PortDeclarations<P> = { readonly [K in keyof P]: Port<P[K]> };

/** The values handlers get, from a subgraph's port declarations. */
export type PortsOf<D> = { [K in keyof D]: D[K] extends Port<infer T> ? T : never };

/** The names of declared ports that `given` lacks. */
export function missingPorts(declared: object | undefined, given: object | undefined): string[] {
  return Object.keys(declared ?? {}).filter((name) => !given || Reflect.get(given, name) === undefined);
}
