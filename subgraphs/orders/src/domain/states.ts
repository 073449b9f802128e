import { defineStateMachine } from '@backoffice/platform';

/**
 * The states of orders, payment attempts, reservations and shipments (parcels) and the moves allowed
 * between them (the reference's section 3), each one platform state machine. A handler asks `assertMove`
 * before it writes a new state; an SQL move takes its `status = ANY(...)` guard from `sourcesOf`.
 */
export const MACHINES = {
  order: defineStateMachine({
    name: 'order',
    transitions: { pending_payment: ['paid', 'cancelled'], paid: [], cancelled: [] },
    repeatable: ['paid'],
    actions: {
      /** Parcels are split and tracked while the order is not cancelled. */
      'shipment.split': ['pending_payment', 'paid'],
      'shipment.track': ['pending_payment', 'paid'],
      /** Goods leave only for a paid order. */
      'shipment.dispatch': ['paid'],
    },
  }),
  payment_attempt: defineStateMachine({
    name: 'payment attempt',
    // A confirmation repeated while confirming marks the attempt again (its timeout counts from the latest).
    transitions: { open: ['confirming', 'succeeded', 'failed'], confirming: ['confirming', 'succeeded', 'failed'], succeeded: [], failed: [] },
  }),
  reservation: defineStateMachine({
    name: 'reservation',
    transitions: { active: ['committed', 'released'], committed: [], released: [] },
    repeatable: ['committed', 'released'],
  }),
  /** A parcel: not yet dispatched (pending), dispatched, delivered; never back. */
  shipment: defineStateMachine({
    name: 'shipment',
    transitions: { pending: ['dispatched'], dispatched: ['delivered'], delivered: [] },
    repeatable: ['dispatched', 'delivered'],
    /** Only a parcel not yet dispatched gives up items to a new one. */
    actions: { split: ['pending'] },
  }),
};

type Machines = typeof MACHINES;
export type Subject = keyof Machines;
export type StateOf<S extends Subject> = Machines[S]['states'][number];
