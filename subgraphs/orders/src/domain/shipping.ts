import type { SkuShipping } from '@backoffice/contracts';
import { conflict, t, validationFailed, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { priceOf, ratesInput, ratesView, type Rates } from './shipping-rates';

/*
 * Shipping configuration and its rules, shared by the shipping commands, the quote read and checkout.
 *
 * - Postal codes are normalized on write and before any comparison (`normalizePostalCode`): trimmed,
 *   upper case, spaces and hyphens removed; what is left must be 1 to 16 letters A-Z or digits.
 * - A zone is an inclusive range of normalized codes of the same length, compared as text byte by
 *   byte (digits before letters; for digit-only codes of one length that is numeric order). A code of
 *   another length than a zone's bounds is outside it.
 * - A parcel (`parcelOf`) holds every unit of the items: its weight is the sum of the units' weights;
 *   its box is found by stacking the units flat — each unit's sides sorted, the box takes the longest
 *   longest side, the longest middle side, and the sum of the shortest sides; then the box's three
 *   sides are sorted again, so length ≥ width ≥ height. One unknown weight (or side) of one item makes
 *   the parcel's weight (or box) unknown.
 * - Billable weight (`billableWeightGrams`): the larger of the actual weight and the volumetric
 *   weight, length × width × height in cm³ divided by the method's `dimensional_divisor` in kg (the
 *   carriers' convention: 6000 means 6000 cm³ per kg), times 1000 in grams, rounded up to the gram.
 *   Null when the weight or the box is unknown.
 * - A method is judged (`judgeMethod`) in this order, the first failing rule giving the reason:
 *   `inactive`; `no_zone` (none of the zones it serves contains the code; a method with no zones
 *   serves every zone of the tenant, so a code in no zone at all is `no_zone` for it too);
 *   `unknown_weight` (it has a weight limit and the weight is unknown) or `too_heavy` (actual weight
 *   above `max_weight_grams`); `unknown_dimensions` (it has a dimension limit and the box is unknown);
 *   `too_long`, `too_wide`, `too_tall` (length, width, height above `max_length_cm`, `max_width_cm`,
 *   `max_height_cm`); `dimensions_sum` (length + width + height above `max_dimensions_sum_cm`);
 *   then its price (domain/shipping-rates.ts): `currency_mismatch`, `unknown_billable_weight`, `above_last_band`.
 * - The estimated delivery date is today's date in UTC plus `transit_days` calendar days, as
 *   YYYY-MM-DD; null when the method's transit days are unknown.
 */

/** Longest postal code accepted as input (before normalization) and once normalized. */
export const POSTAL_CODE_INPUT_MAX = 32;
export const POSTAL_CODE_MAX = 16;
/** Shipping configuration is bounded per tenant (the quote weighs every active method). */
export const METHODS_PER_TENANT = 100;
export const ZONES_PER_TENANT = 1000;

export const METHOD_KINDS = ['delivery', 'pickup'] as const;
/** A shipping method's kind: one GraphQL enum wherever it shows. */
export const methodKind = (options: { description?: string } = {}) => t.enum(METHOD_KINDS, { ...options, name: 'ShippingMethodKind' });
export type MethodKind = (typeof METHOD_KINDS)[number];

/** Why a method cannot carry a parcel to a postal code. */
export const REFUSAL_REASONS = [
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
export type RefusalReason = (typeof REFUSAL_REASONS)[number];

/** Input schema of a postal code (normalized by `normalizePostalCode` in the handler). */
export const postalCodeInput = (description = 'normalized: trimmed, upper case, spaces and hyphens removed; then 1 to 16 letters or digits') =>
  t.string({ minLength: 1, maxLength: POSTAL_CODE_INPUT_MAX, description });

/** Trimmed, upper case, spaces and hyphens removed; refused unless 1 to 16 letters A-Z or digits remain. */
export function normalizePostalCode(raw: string, field = 'postal_code'): string {
  const code = raw
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '');
  if (!/^[A-Z0-9]+$/.test(code) || code.length > POSTAL_CODE_MAX) {
    throw validationFailed(`${field}: a postal code is 1 to ${POSTAL_CODE_MAX} letters or digits once spaces and hyphens are removed`, {
      reason: 'pattern',
      field,
    });
  }
  return code;
}

export interface ZoneRange {
  postal_code_from: string;
  postal_code_to: string;
}

/** Both bounds normalized, of one length, from not after to. */
export function zoneRange(from: string, to: string): ZoneRange {
  const range = { postal_code_from: normalizePostalCode(from, 'postal_code_from'), postal_code_to: normalizePostalCode(to, 'postal_code_to') };
  if (range.postal_code_from.length !== range.postal_code_to.length) {
    throw validationFailed('postal_code_from and postal_code_to must have the same length once normalized', {
      reason: 'invalid_combination',
      field: 'postal_code_to',
    });
  }
  if (range.postal_code_from > range.postal_code_to)
    throw validationFailed('postal_code_from is after postal_code_to', { reason: 'invalid_combination', field: 'postal_code_to' });
  return range;
}

export interface Parcel {
  /** Sum of the units' weights; null when one is unknown. */
  weight_grams: number | null;
  /** The stacked box, length ≥ width ≥ height; null when one side of one item is unknown. */
  length_cm: number | null;
  width_cm: number | null;
  height_cm: number | null;
}

/** A sum or product beyond the safe-integer range is no figure at all: unknown, like a missing one. */
const safe = (n: number): number | null => (Number.isSafeInteger(n) ? n : null);
const plus = (a: number | null, b: number | null) => (a === null || b === null ? null : safe(a + b));

/** One parcel holding every unit of the items (see the rules above). */
export function parcelOf(items: ReadonlyArray<SkuShipping & { qty: number }>): Parcel {
  let weight: number | null = 0;
  let sides: [number, number, number] | null = [0, 0, 0];
  for (const item of items) {
    weight = plus(weight, item.weight_grams === null ? null : safe(item.weight_grams * item.qty));
    if (sides === null || item.length_cm === null || item.width_cm === null || item.height_cm === null) {
      sides = null;
      continue;
    }
    const [a, b, c] = [item.length_cm, item.width_cm, item.height_cm].sort((x, y) => y - x);
    const stacked = plus(sides[2], safe(c * item.qty));
    sides = stacked === null ? null : [Math.max(sides[0], a), Math.max(sides[1], b), stacked];
  }
  const box = sides?.sort((x, y) => y - x) ?? null;
  return { weight_grams: weight, length_cm: box?.[0] ?? null, width_cm: box?.[1] ?? null, height_cm: box?.[2] ?? null };
}

/**
 * max(actual grams, ceil(length × width × height × 1000 / dimensional_divisor)): the divisor is in
 * cm³ per kg. Null when the weight or the box is unknown, or the result beyond the safe-integer range.
 */
export function billableWeightGrams(parcel: Parcel, dimensionalDivisor: number): number | null {
  if (parcel.weight_grams === null || parcel.length_cm === null || parcel.width_cm === null || parcel.height_cm === null) return null;
  const grams = BigInt(parcel.length_cm) * BigInt(parcel.width_cm) * BigInt(parcel.height_cm) * 1000n;
  const divisor = BigInt(dimensionalDivisor);
  const volumetric = (grams + divisor - 1n) / divisor;
  if (volumetric > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Math.max(parcel.weight_grams, Number(volumetric));
}

/** Today (UTC) plus `transitDays` calendar days, YYYY-MM-DD; null when unknown. */
export function estimatedDeliveryDate(transitDays: number | null, now = new Date()): string | null {
  if (transitDays === null) return null;
  const day = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + transitDays));
  return day.toISOString().slice(0, 10);
}

export interface ShippingMethod {
  method_id: string;
  name: string;
  kind: MethodKind;
  active: boolean;
  carrier_id: string | null;
  dimensional_divisor: number;
  max_weight_grams: number | null;
  max_length_cm: number | null;
  max_width_cm: number | null;
  max_height_cm: number | null;
  max_dimensions_sum_cm: number | null;
  transit_days: number | null;
  /** The zones it serves; empty: every zone of the tenant. */
  zone_ids: string[];
  /** What it charges; null: nothing. */
  rates: Rates | null;
}

export type Verdict =
  | { ok: true; method_id: string; billable_weight_grams: number | null; estimated_delivery_date: string | null; shipping_amount: number }
  | { ok: false; method_id: string; reason: RefusalReason };

/**
 * Can `method` carry `parcel` to a postal code, and for how much? `zonesContaining` are the tenant's
 * zones whose range holds the (normalized) code (`zonesContaining()` finds them); `currency` is the
 * items' (null: they are priced in several). The first failing rule is the reason.
 */
export function judgeMethod(method: ShippingMethod, parcel: Parcel, zonesContaining: ReadonlySet<string>, currency: string | null, now = new Date()): Verdict {
  const refuse = (reason: RefusalReason): Verdict => ({ ok: false, method_id: method.method_id, reason });
  if (!method.active) return refuse('inactive');
  const served = method.zone_ids.length ? method.zone_ids.some((id) => zonesContaining.has(id)) : zonesContaining.size > 0;
  if (!served) return refuse('no_zone');
  if (method.max_weight_grams !== null) {
    if (parcel.weight_grams === null) return refuse('unknown_weight');
    if (parcel.weight_grams > method.max_weight_grams) return refuse('too_heavy');
  }
  const sideLimited = method.max_length_cm !== null || method.max_width_cm !== null || method.max_height_cm !== null || method.max_dimensions_sum_cm !== null;
  if (sideLimited) {
    if (parcel.length_cm === null || parcel.width_cm === null || parcel.height_cm === null) return refuse('unknown_dimensions');
    if (method.max_length_cm !== null && parcel.length_cm > method.max_length_cm) return refuse('too_long');
    if (method.max_width_cm !== null && parcel.width_cm > method.max_width_cm) return refuse('too_wide');
    if (method.max_height_cm !== null && parcel.height_cm > method.max_height_cm) return refuse('too_tall');
    if (method.max_dimensions_sum_cm !== null && parcel.length_cm + parcel.width_cm + parcel.height_cm > method.max_dimensions_sum_cm)
      return refuse('dimensions_sum');
  }
  const billable = billableWeightGrams(parcel, method.dimensional_divisor);
  const price = priceOf(method.rates, billable, currency);
  if (!price.ok) return refuse(price.reason);
  return {
    ok: true,
    method_id: method.method_id,
    billable_weight_grams: billable,
    estimated_delivery_date: estimatedDeliveryDate(method.transit_days, now),
    shipping_amount: price.amount,
  };
}

/** The ids of the tenant's zones whose range holds the normalized `code`. */
export async function zonesContaining(db: EntityManager, tenantId: string, code: string): Promise<Set<string>> {
  const rows = await sqlOf(db).rows<{ id: string }>(
    `SELECT id FROM orders.shipping_zone WHERE tenant_id = $1 AND length(postal_code_from) = length($2) AND postal_code_from <= $2 AND postal_code_to >= $2`,
    [tenantId, code],
  );
  return new Set(rows.map((r) => r.id));
}

/** SELECT list of a method as `ShippingMethod` (plus its timestamps), from `orders.shipping_method m`. */
export const METHOD_COLUMNS = `m.id AS method_id, m.name, m.kind, m.active, m.carrier_id, m.dimensional_divisor::float8 AS dimensional_divisor,
  m.max_weight_grams::float8 AS max_weight_grams, m.max_length_cm::float8 AS max_length_cm, m.max_width_cm::float8 AS max_width_cm,
  m.max_height_cm::float8 AS max_height_cm, m.max_dimensions_sum_cm::float8 AS max_dimensions_sum_cm, m.transit_days,
  coalesce((SELECT array_agg(mz.zone_id ORDER BY mz.zone_id) FROM orders.shipping_method_zone mz WHERE mz.method_id = m.id), '{}') AS zone_ids,
  m.rates, m.created_at, m.updated_at`;

export type MethodRow = ShippingMethod & { created_at: Date; updated_at: Date };

/** The tenant's methods (all, or those named), oldest first. */
export async function methodsOf(
  db: EntityManager,
  tenantId: string,
  options: { ids?: readonly string[]; activeOnly?: boolean; lock?: boolean } = {},
): Promise<MethodRow[]> {
  return await sqlOf(db).rows<MethodRow>(
    `SELECT ${METHOD_COLUMNS} FROM orders.shipping_method m
     WHERE m.tenant_id = $1 AND ($2::text[] IS NULL OR m.id = ANY($2::text[])) AND (NOT $3 OR m.active)
     ORDER BY m.created_at, m.id${options.lock ? ' FOR UPDATE OF m' : ''}`,
    [tenantId, options.ids ?? null, options.activeOnly ?? false],
  );
}

/**
 * For checkout with a shipping method: the tenant's method judged against the parcel, the address's
 * postal code and the order's currency. An unknown method is a conflict; the verdict's reason says
 * why it cannot serve (the caller refuses with `conflict` naming it), else its price.
 */
export async function checkShipping(
  db: EntityManager,
  tenantId: string,
  methodId: string,
  parcel: Parcel,
  postalCode: string,
  currency: string,
): Promise<{ method: ShippingMethod; verdict: Verdict }> {
  const [method] = await methodsOf(db, tenantId, { ids: [methodId] });
  if (!method) throw conflict(`shipping method ${methodId} does not exist in this tenant`, { reason: 'not_found', field: 'shipping_method_id' });
  const code = normalizePostalCode(postalCode);
  return { method, verdict: judgeMethod(method, parcel, await zonesContaining(db, tenantId, code), currency) };
}

/** Refuses zone ids the tenant does not have (a conflict, as for any unknown reference). */
export async function assertZones(db: EntityManager, tenantId: string, zoneIds: readonly string[]): Promise<void> {
  if (!zoneIds.length) return;
  const rows = await sqlOf(db).rows<{ id: string }>(`SELECT id FROM orders.shipping_zone WHERE tenant_id = $1 AND id = ANY($2::text[])`, [tenantId, zoneIds]);
  const found = new Set(rows.map((r) => r.id));
  const missing = zoneIds.filter((id) => !found.has(id));
  if (missing.length) throw conflict(`shipping zone ${missing.join(', ')} does not exist in this tenant`, { reason: 'not_found', field: 'zone_ids' });
}

/** Orders the tenant's shipping configuration changes, so the per-tenant counts hold. */
export async function lockShippingConfig(db: EntityManager, tenantId: string): Promise<void> {
  await db.query(`SELECT pg_advisory_xact_lock(hashtext('orders.shipping-config.' || $1))`, [tenantId]);
}

/** A method as the reads and `shipping.method.update` show it. */
export const methodView = t.entity(
  'ShippingMethod',
  {
    method_id: t.string(),
    name: t.string(),
    kind: methodKind(),
    active: t.boolean(),
    carrier_id: t.nullable(t.string()),
    dimensional_divisor: t.integer({ minimum: 1, description: 'cm³ per kg: volumetric grams = length × width × height × 1000 / divisor' }),
    max_weight_grams: t.nullable(t.integer({ minimum: 1 })),
    max_length_cm: t.nullable(t.integer({ minimum: 1 })),
    max_width_cm: t.nullable(t.integer({ minimum: 1 })),
    max_height_cm: t.nullable(t.integer({ minimum: 1 })),
    max_dimensions_sum_cm: t.nullable(t.integer({ minimum: 1 })),
    transit_days: t.nullable(t.integer({ minimum: 0, maximum: 365 })),
    zone_ids: t.array(t.string(), { maxItems: ZONES_PER_TENANT, description: 'the zones it serves; empty: every zone of the tenant' }),
    rates: ratesView,
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  },
  'method_id',
);

export const methodOut = (m: MethodRow) => ({ ...m, created_at: m.created_at.toISOString(), updated_at: m.updated_at.toISOString() });

/** Input fields shared by shipping.method.create and shipping.method.update. */
const limit = (description: string) => t.optional(t.nullable(t.integer({ minimum: 1, description: `${description}; null: no limit` })));
export const methodFields = {
  name: t.string({ minLength: 1, maxLength: 200 }),
  dimensional_divisor: t.integer({
    minimum: 1,
    description: 'cubic divisor in cm³ per kg (e.g. 6000): volumetric grams = length × width × height × 1000 / divisor',
  }),
  active: t.optional(t.boolean({ description: 'default true' })),
  kind: t.optional(methodKind({ description: 'default delivery' })),
  carrier_id: t.optional(t.nullable(t.string({ minLength: 1, maxLength: 200 }))),
  max_dimensions_sum_cm: limit('length + width + height of the parcel at most'),
  max_height_cm: limit('height (shortest side) of the parcel at most'),
  max_length_cm: limit('length (longest side) of the parcel at most'),
  max_weight_grams: limit('actual weight of the parcel at most'),
  max_width_cm: limit('width (middle side) of the parcel at most'),
  transit_days: t.optional(t.nullable(t.integer({ minimum: 0, maximum: 365, description: 'calendar days to deliver; null: unknown (no estimated date)' }))),
  zone_ids: t.optional(
    t.array(t.id(), { maxItems: ZONES_PER_TENANT, uniqueItems: true, description: 'the tenant’s zones it serves; none or empty: every zone' }),
  ),
  rates: t.optional(t.nullable(ratesInput)),
};

/** What shipping.config.updated names as changed. */
export const METHOD_FIELDS = [
  'name',
  'dimensional_divisor',
  'active',
  'kind',
  'carrier_id',
  'max_dimensions_sum_cm',
  'max_height_cm',
  'max_length_cm',
  'max_weight_grams',
  'max_width_cm',
  'transit_days',
  'zone_ids',
  'rates',
] as const;
export type MethodField = (typeof METHOD_FIELDS)[number];
