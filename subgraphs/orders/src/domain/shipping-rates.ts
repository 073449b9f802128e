import { t, validationFailed } from '@backoffice/platform';

/*
 * What a shipping method charges (issue 27, "Shipping price"), shared by the method commands, the
 * quote and checkout.
 *
 * - A method without rates costs 0 in any currency: every method made before rates existed, and
 *   every call that sends none, keeps its meaning.
 * - Rates are in one `currency` (3 upper-case letters) and in its minor units, as SKU prices and
 *   coupons are: either a `flat_amount`, or `bands` by billable weight (domain/shipping.ts), each
 *   `{ up_to_grams, amount }`, `up_to_grams` strictly ascending, so bands never overlap. The band
 *   charged is the first whose `up_to_grams` is at least the billable weight (bounds inclusive).
 * - A method priced in another currency than the items is not offered (`currency_mismatch`); a
 *   banded method is not offered when the billable weight is unknown (`unknown_billable_weight`) or
 *   above its last band (`above_last_band`): no price is made up.
 */

/** At most this many bands per method. */
export const RATE_BANDS_MAX = 20;
/** An amount is 0 to this many minor units (one million in a two-decimal currency). */
export const RATE_AMOUNT_MAX = 100_000_000;
/** A band's upper bound is 1 g to this many grams (100 t). */
export const BAND_GRAMS_MAX = 100_000_000;

export interface RateBand {
  up_to_grams: number;
  amount: number;
}

/** As stored (`orders.shipping_method.rates`) and shown: exactly one of `flat_amount` and `bands` is not null. */
export interface Rates {
  currency: string;
  flat_amount: number | null;
  bands: RateBand[] | null;
}

const amount = (description: string) => t.integer({ minimum: 0, maximum: RATE_AMOUNT_MAX, description: `${description} (minor units of currency)` });
const currency = t.string({ minLength: 3, maxLength: 3, pattern: '^[A-Z]{3}$', description: 'ISO 4217, upper case: the currency of the amounts' });
const band = t.object({
  up_to_grams: t.integer({ minimum: 1, maximum: BAND_GRAMS_MAX, description: 'the band holds billable weights up to this many grams, inclusive' }),
  amount: amount('the price of a parcel in this band'),
});
const bandsDescription =
  `1 to ${RATE_BANDS_MAX} bands by billable weight, up_to_grams strictly ascending; the first band holding the billable weight is charged; ` +
  'above the last band (or with an unknown billable weight) the method is not offered';

/** Input of `rates` on shipping.method.create and shipping.method.update (null on update: no rates, costs 0). */
export const ratesInput = t.object(
  {
    currency,
    flat_amount: t.optional(amount('one price whatever the parcel')),
    bands: t.optional(t.array(band, { minItems: 1, maxItems: RATE_BANDS_MAX, description: bandsDescription })),
  },
  { description: 'what the method charges: exactly one of flat_amount and bands; none: the method costs 0 (extension)' },
);

/** `rates` as the method reads show it; null: the method costs 0. */
export const ratesView = t.nullable(
  t.entity('ShippingRates', {
    currency,
    flat_amount: t.nullable(amount('one price whatever the parcel; null with bands')),
    bands: t.nullable(t.array(band, { maxItems: RATE_BANDS_MAX, description: `${bandsDescription}; null with flat_amount` })),
  }),
);

/** The input checked beyond its schema: exactly one form, bands ascending. */
export function ratesOf(input: { currency: string; flat_amount?: number; bands?: RateBand[] }): Rates {
  if ((input.flat_amount === undefined) === (input.bands === undefined)) throw validationFailed('rates: exactly one of flat_amount and bands');
  const bands = input.bands?.map((b) => ({ up_to_grams: b.up_to_grams, amount: b.amount })) ?? null;
  if (bands?.some((b, i) => i > 0 && b.up_to_grams <= bands[i - 1].up_to_grams)) {
    throw validationFailed('rates.bands: up_to_grams must be strictly ascending (bands may not overlap)');
  }
  return { currency: input.currency, flat_amount: input.flat_amount ?? null, bands };
}

/** Equal rates, whatever the order of their keys (jsonb keeps its own). */
export const sameRates = (a: Rates | null, b: Rates | null): boolean => {
  const key = (r: Rates | null) => r && JSON.stringify([r.currency, r.flat_amount, r.bands?.map((b) => [b.up_to_grams, b.amount]) ?? null]);
  return key(a) === key(b);
};

export type Price = { ok: true; amount: number } | { ok: false; reason: 'currency_mismatch' | 'unknown_billable_weight' | 'above_last_band' };

/**
 * The price of a parcel of `billableGrams` whose items are priced in `currency` (null: in several,
 * which no priced method can charge in).
 */
export function priceOf(rates: Rates | null, billableGrams: number | null, currency: string | null): Price {
  if (!rates) return { ok: true, amount: 0 };
  if (rates.currency !== currency) return { ok: false, reason: 'currency_mismatch' };
  if (rates.flat_amount !== null) return { ok: true, amount: rates.flat_amount };
  if (billableGrams === null) return { ok: false, reason: 'unknown_billable_weight' };
  const band = rates.bands?.find((b) => billableGrams <= b.up_to_grams);
  return band ? { ok: true, amount: band.amount } : { ok: false, reason: 'above_last_band' };
}
