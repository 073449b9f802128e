import type { StateMachine } from '@backoffice/platform';
import { OPERATOR_MACHINE } from '../../subgraphs/identity/src/domain/operators';
import { MACHINES } from '../../subgraphs/orders/src/domain/states';
import { PAGE_MACHINE } from '../../subgraphs/content/src/domain/pages';

/** Each machine's whole table, so a change to a rule is seen here in seconds (no system is started). */
const table = <S extends string>(machine: StateMachine<S, string>) => Object.fromEntries(machine.states.map((state) => [state, machine.movesFrom(state)]));
const repeats = <S extends string>(machine: StateMachine<S, string>) =>
  machine.states.filter((state) => {
    try {
      return machine.assertMove('x', state, state) === 'same';
    } catch {
      return false;
    }
  });

describe('the state machines', () => {
  it('orders: paid or cancelled once, paying again changes nothing', () => {
    expect(table(MACHINES.order)).toEqual({ pending_payment: ['paid', 'cancelled'], paid: [], cancelled: [] });
    expect(repeats(MACHINES.order)).toEqual(['paid']);
    expect(MACHINES.order.statesAllowing('shipment.split')).toEqual(['pending_payment', 'paid']);
    expect(MACHINES.order.statesAllowing('shipment.track')).toEqual(['pending_payment', 'paid']);
    expect(MACHINES.order.statesAllowing('shipment.dispatch')).toEqual(['paid']);
    expect(() => MACHINES.order.assertMove('o1', 'paid', 'cancelled')).toThrow('order o1 is paid: it cannot become cancelled');
  });

  it('payment attempts: the SQL guards come from here', () => {
    expect(table(MACHINES.payment_attempt)).toEqual({
      open: ['confirming', 'succeeded', 'failed'],
      confirming: ['confirming', 'succeeded', 'failed'],
      succeeded: [],
      failed: [],
    });
    expect(MACHINES.payment_attempt.sourcesOf('confirming')).toEqual(['open', 'confirming']);
    expect(MACHINES.payment_attempt.sourcesOf('succeeded')).toEqual(['open', 'confirming']);
    expect(MACHINES.payment_attempt.sourcesOf('failed')).toEqual(['open', 'confirming']);
    expect(repeats(MACHINES.payment_attempt)).toEqual([]);
    expect(() => MACHINES.payment_attempt.assertMove('pa1', 'failed', 'succeeded')).toThrow('payment attempt pa1 is failed: it cannot become succeeded');
  });

  it('reservations: committed or released once, idempotently', () => {
    expect(table(MACHINES.reservation)).toEqual({ active: ['committed', 'released'], committed: [], released: [] });
    expect(repeats(MACHINES.reservation)).toEqual(['committed', 'released']);
  });

  it('shipments: pending, dispatched, delivered, never back; only a pending one is split', () => {
    expect(table(MACHINES.shipment)).toEqual({ pending: ['dispatched'], dispatched: ['delivered'], delivered: [] });
    expect(repeats(MACHINES.shipment)).toEqual(['dispatched', 'delivered']);
    expect(MACHINES.shipment.statesAllowing('split')).toEqual(['pending']);
  });

  it('operators: activated by a first login, deactivated for good', () => {
    expect(table(OPERATOR_MACHINE)).toEqual({ invited: ['active', 'deactivated'], active: ['deactivated'], deactivated: [] });
    expect(repeats(OPERATOR_MACHINE)).toEqual(['deactivated']);
    expect(OPERATOR_MACHINE.statesAllowing('login')).toEqual(['invited', 'active']);
    expect(OPERATOR_MACHINE.statesAllowing('update')).toEqual(['invited', 'active']);
  });

  it('pages: archived and back, each repeatable; changed only while active', () => {
    expect(table(PAGE_MACHINE)).toEqual({ active: ['archived'], archived: ['active'] });
    expect(repeats(PAGE_MACHINE)).toEqual(['active', 'archived']);
    expect(PAGE_MACHINE.statesAllowing('update')).toEqual(['active']);
  });
});
