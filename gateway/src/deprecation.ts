import type { Operation } from '@backoffice/platform';
import { OPERATIONS } from './subgraphs';

/** Where an operation is served on the REST face: `/v1/commands/<name>`, or its read's path. */
export function restPathOf(name: string): string | null {
  const op = OPERATIONS.get(name)?.operation;
  if (!op) return null;
  return op.kind === 'command' ? `/v1/commands/${op.name}` : op.restPath ? `/v1/read${op.restPath}` : null;
}

/**
 * The headers of every answer of a deprecated operation: `Deprecation: true` (the reference gives
 * no date, so RFC 9745's date form cannot be filled) and, when it has a successor,
 * `Link: <path>; rel="successor-version"`. None for an operation in good standing.
 */
export function deprecationHeaders(op: Pick<Operation, 'deprecated' | 'successor'>): Record<string, string> {
  if (!op.deprecated) return {};
  const successor = op.successor ? restPathOf(op.successor) : null;
  return { deprecation: 'true', ...(successor ? { link: `<${successor}>; rel="successor-version"` } : {}) };
}
