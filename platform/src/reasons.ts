/*
 * Why a call was refused, finer than its kind: GraphQL's `extensions.reason` (docs/admin-graphql.md,
 * *Errors*), stable so a front-end can act on it. A closed list: a new reason is added here and there.
 */
export const REASONS = {
  // The input as a schema reads it (validation_failed; some appear with conflict).
  required: 'a required field is missing',
  unknown_field: 'a field the operation does not take',
  too_long: 'a text or list longer than allowed (a parcel longer than a shipping method takes, with conflict)',
  too_short: 'a text or list shorter than allowed',
  out_of_range: 'a number, or a figure it would make (stock, a total, a promotional amount), outside its bounds',
  pattern: 'a text not in the required form (a slug, a handle, a URL, an email)',
  invalid_value: 'a value of the wrong type, not among the allowed ones, or otherwise unusable',
  invalid_combination: 'fields that contradict each other or must be given together or apart',
  // The tenant's state (conflict, not_found).
  not_found: 'an id, handle or code that names nothing in the tenant',
  duplicate: 'a handle, code, email, slug or name another record has, or an item listed twice',
  illegal_transition: 'the state of the thing does not allow the move or action (every state machine)',
  insufficient_stock: 'less stock available than asked',
  exceeds_remaining: 'a quantity above what the source still holds',
  not_for_sale: 'a SKU inactive, or not published to the store',
  not_applicable: 'the thing exists but the command does not apply to it (a coupon, a credential of the wrong kind, a record with no body)',
  limit_reached: 'the tenant has as many of these as it may have',
  not_configured: 'the feature is not set up on this instance or tenant',
  payment_declined: 'the payment app did not verify the payment',
  unavailable: 'something the call needs did not answer or kept changing: try again',
  // Why a shipping method cannot carry the order (order.create; the REST body's own `reason` too).
  inactive: 'the shipping method is not active',
  no_zone: 'the shipping method serves no zone holding the postal code',
  unknown_weight: 'the method has a weight limit and a SKU has no weight',
  too_heavy: 'the parcel is heavier than the method takes',
  unknown_dimensions: 'the method has size limits and a SKU has no dimensions',
  too_wide: 'the parcel is wider than the method takes',
  too_tall: 'the parcel is taller than the method takes',
  dimensions_sum: 'the parcel’s length, width and height add up to more than the method takes',
  currency_mismatch: 'the method’s rates are in another currency than the items',
  unknown_billable_weight: 'the method is priced by weight bands and a SKU has no weight or dimensions',
  above_last_band: 'the billable weight is above the method’s last rate band',
  // Who calls.
  unauthenticated: 'no valid credential, code or login',
  scope_missing: 'the credential lacks the scope (the message names it)',
  owner_only: 'only the tenant’s owner key may do this',
  rate_limited: 'too many calls: wait (Retry-After)',
  unknown_projection: 'a projection the read does not declare',
} as const;

export type Reason = keyof typeof REASONS;

export function isReason(value: unknown): value is Reason {
  return typeof value === 'string' && Object.hasOwn(REASONS, value);
}

/** The shipping refusals, whose REST and MCP bodies carried `reason` before reasons existed: they keep it there. */
export const SHIPPING_REFUSALS = [
  'inactive',
  'no_zone',
  'unknown_weight',
  'too_heavy',
  'unknown_dimensions',
  'too_long',
  'too_wide',
  'too_tall',
  'dimensions_sum',
  'currency_mismatch',
  'unknown_billable_weight',
  'above_last_band',
] as const;
