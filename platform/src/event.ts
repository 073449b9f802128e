import type { Static, TObject } from '@sinclair/typebox';
import { resultProblem } from './validation';

/**
 * The one declaration of an event a subgraph emits: its name and its payload's schema. Operations
 * list the declarations they emit, `emit` takes only those, and the event catalog (OpenAPI's
 * `webhooks`) comes from the same declarations. Payloads never hold a token or secret.
 */
export interface EventDeclaration<N extends string = string, S extends TObject = TObject> {
  readonly name: N;
  readonly payload: S;
  /** What happened, for the event catalog. */
  readonly summary: string;
}

export type EventPayload<E extends EventDeclaration> = Static<E['payload']>;

/** Declares an event: `defineEvent('iam.api_key.revoked', t.object({ … }), 'A key was revoked')`. */
export function defineEvent<N extends string, S extends TObject>(name: N, payload: S, summary = ''): EventDeclaration<N, S> {
  return { name, payload, summary };
}

/** An event recorded by a command, before it is written to the outbox. */
export interface EventDraft {
  type: string;
  payload: Record<string, unknown>;
}

/**
 * The draft of an emitted event. An event outside `allowed` or a payload outside its schema is a
 * bug of the emitter: it throws, so the command fails as `internal` and rolls back.
 */
export function eventDraft(emitter: string, allowed: readonly EventDeclaration[], event: EventDeclaration, payload: unknown): EventDraft {
  if (!allowed.includes(event)) throw new Error(`${emitter} may not emit ${event?.name ?? String(event)}: it is not among its declared events`);
  const problem = resultProblem(event.payload, payload);
  if (problem) throw new Error(`${emitter} emitted ${event.name} with a payload outside its schema: ${problem}`);
  return { type: event.name, payload: payload as Record<string, unknown> };
}
