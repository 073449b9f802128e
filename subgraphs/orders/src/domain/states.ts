import { conflict } from '@backoffice/platform';

/**
 * The states of orders, payment attempts, reservations and shipments (parcels) and the moves allowed between them, as
 * data (the reference's section 3), checked by one function. A handler asks `move(...)` before it
 * writes a new state; a move not in the table is a conflict, a move to the same state is a no-op
 * where the table says so.
 */
export const TRANSITIONS = {
  order: {
    pending_payment: ['paid', 'cancelled'],
    paid: [],
    cancelled: [],
  },
  payment_attempt: {
    open: ['confirming', 'succeeded', 'failed'],
    confirming: ['succeeded', 'failed'],
    succeeded: [],
    failed: [],
  },
  reservation: {
    active: ['committed', 'released'],
    committed: [],
    released: [],
  },
  /** A parcel: not yet dispatched (pending), dispatched, delivered; never back. */
  shipment: {
    pending: ['dispatched'],
    dispatched: ['delivered'],
    delivered: [],
  },
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type Subject = keyof typeof TRANSITIONS;
export type StateOf<S extends Subject> = keyof (typeof TRANSITIONS)[S] & string;

/** A subject's states, as declared above (for the schemas that show them). */
export const statesOf = <S extends Subject>(subject: S) => Object.keys(TRANSITIONS[subject]) as Array<StateOf<S>>;

/** Repeating these moves succeeds without change (idempotent by state). */
const REPEATABLE: { [S in Subject]?: readonly StateOf<S>[] } = {
  order: ['paid'],
  reservation: ['committed', 'released'],
  shipment: ['dispatched', 'delivered'],
};

/**
 * What moving `subject` (named `id`) from `from` to `to` does: 'move' (allowed), 'same' (already
 * there, and repeating is allowed), or a conflict naming both states.
 */
export function move<S extends Subject>(subject: S, id: string, from: StateOf<S>, to: StateOf<S>): 'move' | 'same' {
  const allowed = (TRANSITIONS[subject] as Record<string, readonly string[]>)[from] ?? [];
  if (allowed.includes(to)) return 'move';
  if (from === to && ((REPEATABLE[subject] ?? []) as readonly string[]).includes(to)) return 'same';
  throw conflict(`${subject.replace('_', ' ')} ${id} is ${from}: it cannot become ${to}`);
}

/**
 * What may be done to a subject in each of its states, beyond moving it (also data): an action not
 * listed for the state is a conflict.
 */
export const ALLOWED_IN = {
  order: {
    /** Parcels are split and tracked while the order is not cancelled. */
    'shipment.split': ['pending_payment', 'paid'],
    'shipment.track': ['pending_payment', 'paid'],
    /** Goods leave only for a paid order. */
    'shipment.dispatch': ['paid'],
  },
  shipment: {
    /** Only a parcel not yet dispatched gives up items to a new one. */
    split: ['pending'],
  },
} as const satisfies { [S in Subject]?: Record<string, readonly StateOf<S>[]> };

type Allowed = typeof ALLOWED_IN;

/** The states of `subject` in which `action` is allowed (e.g. the parcels a split may take from). */
export function statesAllowing<S extends keyof Allowed>(subject: S, action: keyof Allowed[S]): readonly string[] {
  return (ALLOWED_IN[subject] as Record<PropertyKey, readonly string[]>)[action as PropertyKey];
}

/** A conflict unless `action` is allowed on `subject` (named `id`) in its state `state`. */
export function allow<S extends keyof Allowed>(subject: S, id: string, state: StateOf<S>, action: keyof Allowed[S] & string): void {
  if (!statesAllowing(subject, action).includes(state)) throw conflict(`${subject.replace('_', ' ')} ${id} is ${state}: ${action.replace('.', ' ')} is not allowed`);
}
