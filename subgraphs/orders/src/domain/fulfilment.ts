import { t } from '@backoffice/platform';
import { MACHINES, type StateOf } from './states';

/**
 * How far an order's goods have gone, from its parcels' states (every quantity of an order is in exactly
 * one parcel, and a parcel emptied by a split is deleted, so this is also how far its quantities have gone):
 * `unfulfilled` while no parcel is dispatched, `partially_dispatched` while some are and others are not,
 * `dispatched` once every parcel is dispatched or delivered but not all delivered, `delivered` once all are.
 */
export const FULFILMENT_STATUSES = ['unfulfilled', 'partially_dispatched', 'dispatched', 'delivered'] as const;
export type FulfilmentStatus = (typeof FULFILMENT_STATUSES)[number];

export const fulfilmentEnum = (description: string) => t.enum(FULFILMENT_STATUSES, { name: 'FulfilmentStatus', description });

/** The machine's words: a parcel that can still be split is not yet dispatched; the others have left. */
const WAITING = MACHINES.shipment.statesAllowing('split');
const SENT = MACHINES.shipment.states.filter((state) => !WAITING.includes(state));
const DELIVERED: StateOf<'shipment'> = 'delivered';
const UNDELIVERED = MACHINES.shipment.states.filter((state) => state !== DELIVERED);

/** A parcel `s` in one of `states` (the machine's constants, not input). */
const inStates = (states: readonly string[]) => `s.status IN (${states.map((state) => `'${state}'`).join(', ')})`;
/** Whether the order `o` has a parcel in one of `states`. */
const parcelIn = (states: readonly string[]) => `EXISTS (SELECT 1 FROM orders.shipment s WHERE s.order_id = o.id AND ${inStates(states)})`;

const sent = parcelIn(SENT);
const waiting = parcelIn(WAITING);
const undelivered = parcelIn(UNDELIVERED);

/** The condition an order `o` meets in each fulfilment status: set-based, over the shipments' (order_id) index. */
export const FULFILMENT_WHERE: Record<FulfilmentStatus, string> = {
  unfulfilled: `NOT ${sent}`,
  partially_dispatched: `${sent} AND ${waiting}`,
  dispatched: `${sent} AND NOT ${waiting} AND ${undelivered}`,
  delivered: `${sent} AND NOT ${undelivered}`,
};

/**
 * The order `o`'s fulfilment status as a column of the statement reading it: one index lookup of its parcels
 * per row answered (the same conditions as FULFILMENT_WHERE; a scalar subquery, which the planner never
 * turns into a hash of every shipment as it may an EXISTS in the select list).
 */
export const FULFILMENT_COLUMN = `(SELECT CASE WHEN NOT coalesce(bool_or(${inStates(SENT)}), false) THEN 'unfulfilled'
  WHEN bool_or(${inStates(WAITING)}) THEN 'partially_dispatched' WHEN bool_or(${inStates(UNDELIVERED)}) THEN 'dispatched' ELSE 'delivered' END
  FROM orders.shipment s WHERE s.order_id = o.id) AS fulfilment_status`;

/** An order node's fulfilment status read with it, out of the result's schema (the `Order.fulfilment_status` resolver's). */
export const FULFILMENT_OF_ORDER = Symbol('fulfilment');
