import { conflict } from '@backoffice/platform';

/**
 * The states of orders, payment attempts and reservations and the moves allowed between them, as
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
} as const satisfies Record<string, Record<string, readonly string[]>>;

export type Subject = keyof typeof TRANSITIONS;
export type StateOf<S extends Subject> = keyof (typeof TRANSITIONS)[S] & string;

/** Repeating these moves succeeds without change (idempotent by state). */
const REPEATABLE: { [S in Subject]?: readonly StateOf<S>[] } = {
  order: ['paid'],
  reservation: ['committed', 'released'],
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
