import { AppError } from './errors';
import { defineStateMachine } from './state-machine';

/** The helper alone, on a machine of its own: no system is started. */
const door = defineStateMachine({
  name: 'door',
  transitions: { closed: ['open', 'locked'], open: ['closed'], locked: ['closed'] },
  repeatable: ['locked'],
  actions: { 'knock.twice': ['closed', 'locked'] },
});

const conflictOf = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error instanceof AppError ? { kind: error.kind, message: error.message } : error;
  }
  throw new Error('expected a refusal');
};

describe('defineStateMachine', () => {
  it('lists its states in declaration order', () => {
    expect(door.states).toEqual(['closed', 'open', 'locked']);
  });

  it('answers can, movesFrom and sourcesOf from the table', () => {
    expect(door.can('closed', 'open')).toBe(true);
    expect(door.can('open', 'locked')).toBe(false);
    expect(door.movesFrom('closed')).toEqual(['open', 'locked']);
    expect(door.sourcesOf('closed')).toEqual(['open', 'locked']);
    expect(door.sourcesOf('open')).toEqual(['closed']);
  });

  it('moves, repeats a repeatable state without change, refuses anything else as a conflict', () => {
    expect(door.assertMove('d1', 'closed', 'open')).toBe('move');
    expect(door.assertMove('d1', 'locked', 'locked')).toBe('same');
    expect(conflictOf(() => door.assertMove('d1', 'open', 'open'))).toEqual({ kind: 'conflict', message: 'door d1 is open: it cannot become open' });
    expect(conflictOf(() => door.assertMove('d1', 'open', 'locked'))).toEqual({ kind: 'conflict', message: 'door d1 is open: it cannot become locked' });
  });

  it('allows an action only in its states', () => {
    expect(door.statesAllowing('knock.twice')).toEqual(['closed', 'locked']);
    expect(door.allows('knock.twice', 'open')).toBe(false);
    expect(() => door.assertAllowed('d1', 'closed', 'knock.twice')).not.toThrow();
    expect(conflictOf(() => door.assertAllowed('d1', 'open', 'knock.twice'))).toEqual({
      kind: 'conflict',
      message: 'door d1 is open: knock twice is not allowed',
    });
  });

  it('types states and actions from the table', () => {
    // @ts-expect-error: not a state of the machine
    expect(door.can('closed', 'ajar')).toBe(false);
    // @ts-expect-error: not an action of the machine
    expect(door.statesAllowing('ring')).toEqual([]);
  });

  it('refuses a machine without states', () => {
    expect(() => defineStateMachine({ name: 'void', transitions: {} })).toThrow('state machine void has no states');
  });
});
