import { conflict } from './errors';
import { t } from './schema';

/**
 * The states of one stateful thing (an order, a page, an operator…) and the moves allowed between
 * them, as data, with the one check every handler asks before it writes a new state. A move not in
 * the table is a conflict (the reference's kind for an illegal move), reason `illegal_transition`.
 */
export interface StateMachineDefinition<S extends string, A extends string> {
  /** As messages name it: `payment attempt`, `page`. */
  name: string;
  /** From each state, the states it may become. Its keys, in order, are the machine's states. */
  transitions: { readonly [K in S]: readonly NoInfer<S>[] };
  /** States a thing already in may be moved to again, succeeding without change (idempotent by state). */
  repeatable?: readonly NoInfer<S>[];
  /** What may be done to the thing in each state beyond moving it: an action not listed for a state is refused. */
  actions?: { readonly [K in A]: readonly NoInfer<S>[] };
}

export interface StateMachine<S extends string, A extends string = never> {
  readonly name: string;
  /** Every state, in declaration order (for the enums of schemas). */
  readonly states: readonly [S, ...S[]];
  can(from: S, to: S): boolean;
  movesFrom(state: S): readonly S[];
  /** The states from which `to` may be reached: the `status = ANY(...)` guard of an SQL move. */
  sourcesOf(to: S): S[];
  /** 'move' (allowed), 'same' (already there, and repeating is allowed), or a conflict naming both states. */
  assertMove(id: string, from: S, to: S): 'move' | 'same';
  /** The states in which `action` is allowed. */
  statesAllowing(action: A): readonly S[];
  allows(action: A, state: S): boolean;
  /** A conflict unless `action` is allowed in `state`. */
  assertAllowed(id: string, state: S, action: A): void;
  /**
   * A schema of its states (all, or the few a command's result can hold) that GraphQL types as the
   * machine's one enum, `<Name>Status` (`payment attempt` → `PaymentAttemptStatus`).
   */
  enum<const V extends readonly S[] = readonly S[]>(only?: V, options?: { description?: string }): ReturnType<typeof t.enum<V>>;
}

export function defineStateMachine<const S extends string, const A extends string = never>(definition: StateMachineDefinition<S, A>): StateMachine<S, A> {
  const { name, transitions, repeatable = [], actions } = definition;
  const states = Object.keys(transitions) as S[];
  if (states.length === 0) throw new Error(`state machine ${name} has no states`);
  const can = (from: S, to: S) => (transitions[from] ?? []).includes(to);
  const statesAllowing = (action: A): readonly S[] => actions?.[action] ?? [];
  const enumName = `${name.replace(/(?:^|\s)(\w)/g, (_, c: string) => c.toUpperCase())}Status`;
  return {
    name,
    states: states as [S, ...S[]],
    // Sound: without `only` the enum is every state, which the declared type (a subset of S) includes.
    enum: (only, options = {}) => t.enum(only ?? (states as never), { ...options, name: enumName, ...(only ? { among: states } : {}) }),
    can,
    movesFrom: (state) => transitions[state] ?? [],
    sourcesOf: (to) => states.filter((from) => can(from, to)),
    assertMove(id, from, to) {
      if (can(from, to)) return 'move';
      if (from === to && repeatable.includes(to)) return 'same';
      throw conflict(`${name} ${id} is ${from}: it cannot become ${to}`, { reason: 'illegal_transition' });
    },
    statesAllowing,
    allows: (action, state) => statesAllowing(action).includes(state),
    assertAllowed(id, state, action) {
      if (!statesAllowing(action).includes(state))
        throw conflict(`${name} ${id} is ${state}: ${action.replace('.', ' ')} is not allowed`, { reason: 'illegal_transition' });
    },
  };
}
