import { Buffer } from 'node:buffer';
import { isFeedPosition, validationFailed } from '@backoffice/platform';

/** Where a stream stands in each subgraph's outbox; a subgraph absent starts from now. */
export type StreamPosition = Record<string, string>;

/**
 * The SSE `id:` of an event: the position of every subgraph after it, base64url-encoded so clients
 * treat it as opaque (`identity:<tx>.<seq>,catalog:…`). Resuming from it gives exactly what followed.
 */
export function encodePosition(position: StreamPosition): string {
  return Buffer.from(
    Object.entries(position)
      .map(([subgraph, at]) => `${subgraph}:${at}`)
      .join(','),
  ).toString('base64url');
}

/**
 * A `Last-Event-ID` back into positions; one this server did not write is refused (validation_failed),
 * a position past bigint included: each subgraph's `<subgraph>.event_feed` read takes it as `<tx>.<seq>`.
 */
export function decodePosition(id: string, subgraphs: readonly string[]): StreamPosition {
  const refused = () => validationFailed('Last-Event-ID is not an id this stream sent');
  if (id.length > 1000 || !/^[A-Za-z0-9_-]*$/.test(id)) throw refused();
  const position: StreamPosition = {};
  for (const part of Buffer.from(id, 'base64url').toString().split(',')) {
    const [subgraph, at] = part.split(':');
    if (!subgraphs.includes(subgraph) || !isFeedPosition(at ?? '') || Object.hasOwn(position, subgraph)) throw refused();
    position[subgraph] = at;
  }
  return position;
}
