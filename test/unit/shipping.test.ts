import {
  billableWeightGrams,
  estimatedDeliveryDate,
  judgeMethod,
  normalizePostalCode,
  parcelOf,
  zoneRange,
  type Parcel,
  type ShippingMethod,
} from '../../subgraphs/orders/src/domain/shipping';
import { priceOf, ratesOf } from '../../subgraphs/orders/src/domain/shipping-rates';

/** The shipping rules alone (docs/shipping.md), without the system. */
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return `${(error as { kind?: string }).kind}: ${(error as Error).message}`;
  }
  return 'accepted';
};

const method = (fields: Partial<ShippingMethod> = {}): ShippingMethod => ({
  method_id: 'shm_1',
  name: 'Courier',
  kind: 'delivery',
  active: true,
  carrier_id: null,
  dimensional_divisor: 6000,
  max_weight_grams: null,
  max_length_cm: null,
  max_width_cm: null,
  max_height_cm: null,
  max_dimensions_sum_cm: null,
  transit_days: null,
  zone_ids: [],
  rates: null,
  ...fields,
});
const box = (weight_grams: number | null, length_cm: number | null, width_cm: number | null, height_cm: number | null): Parcel => ({
  weight_grams,
  length_cm,
  width_cm,
  height_cm,
});
const sku = (weight_grams: number | null, length_cm: number | null, width_cm: number | null, height_cm: number | null, qty = 1) => ({
  weight_grams,
  length_cm,
  width_cm,
  height_cm,
  qty,
});
const reason = (m: Partial<ShippingMethod>, parcel: Parcel, zones: string[] = ['shz_a']) => {
  const verdict = judgeMethod(method(m), parcel, new Set(zones), 'EUR');
  return verdict.ok ? 'served' : verdict.reason;
};
const NOW = new Date('2026-12-30T23:59:59.999Z');

describe('postal codes', () => {
  it('trims, upper-cases and removes spaces and hyphens, so the documented spellings are one code', () => {
    expect(normalizePostalCode('01310-100')).toBe('01310100');
    expect(normalizePostalCode(' 01310 100 ')).toBe('01310100');
    expect(normalizePostalCode('01310100')).toBe('01310100');
    expect(normalizePostalCode('sw1a 1aa')).toBe('SW1A1AA');
    expect(normalizePostalCode('\t1-2 - 3\n')).toBe('123');
    expect(normalizePostalCode('7')).toBe('7');
    expect(normalizePostalCode('A'.repeat(16))).toBe('A'.repeat(16));
    expect(normalizePostalCode('1234-5678-9012-3456')).toBe('1234567890123456');
  });

  it('refuses what is not 1 to 16 letters A-Z or digits once normalized, naming the field', () => {
    for (const bad of ['', '   ', '--', '1'.repeat(17), '1234-5678-9012-34567', '01310.100', '0131_0100', 'São1', '12/34', '１２３']) {
      expect([bad, refusal(() => normalizePostalCode(bad))]).toEqual([
        bad,
        expect.stringMatching(/^validation_failed: postal_code: a postal code is 1 to 16 letters or digits/),
      ]);
    }
    expect(refusal(() => normalizePostalCode('x!', 'shipping_address.postal_code'))).toMatch(/^validation_failed: shipping_address\.postal_code: /);
  });

  it('makes a zone of two normalized bounds of one length, from not after to, a single code allowed', () => {
    expect(zoneRange('01000-000', ' 01999 999')).toEqual({ postal_code_from: '01000000', postal_code_to: '01999999' });
    expect(zoneRange('sw1a', 'SW1A')).toEqual({ postal_code_from: 'SW1A', postal_code_to: 'SW1A' });
    expect(refusal(() => zoneRange('0100', '01999'))).toBe('validation_failed: postal_code_from and postal_code_to must have the same length once normalized');
    expect(refusal(() => zoneRange('02000', '01999'))).toBe('validation_failed: postal_code_from is after postal_code_to');
    expect(refusal(() => zoneRange('A0', '99'))).toBe('validation_failed: postal_code_from is after postal_code_to');
    expect(refusal(() => zoneRange('', '1'))).toMatch(/^validation_failed: postal_code_from: /);
    expect(refusal(() => zoneRange('1', '!'))).toMatch(/^validation_failed: postal_code_to: /);
  });
});

describe('the parcel', () => {
  it('stacks the units flat: longest longest side, longest middle side, the sum of the shortest sides, sorted again', () => {
    // Units given in any side order: each is sorted first.
    expect(parcelOf([sku(300, 10, 30, 20, 2), sku(200, 5, 25, 40)])).toEqual(box(800, 40, 25, 25));
    // Stacking many flat units makes the height the longest side: the box is sorted again.
    expect(parcelOf([sku(10, 20, 15, 2, 12)])).toEqual(box(120, 24, 20, 15));
    expect(parcelOf([])).toEqual(box(0, 0, 0, 0));
  });

  it('makes the weight, or the box, unknown when one item lacks it, or a sum leaves the safe integers', () => {
    expect(parcelOf([sku(100, 10, 10, 10), sku(null, 10, 10, 10)])).toEqual(box(null, 20, 10, 10));
    expect(parcelOf([sku(100, 10, null, 10), sku(100, 10, 10, 10)])).toEqual(box(200, null, null, null));
    expect(parcelOf([sku(Number.MAX_SAFE_INTEGER, 1, 1, 1), sku(1, 1, 1, 1)])).toEqual(box(null, 2, 1, 1));
    const huge = Number.MAX_SAFE_INTEGER;
    expect(parcelOf([sku(1, huge, huge, huge, 2)])).toEqual(box(2, null, null, null));
  });
});

describe('billable weight', () => {
  it('is the larger of the actual weight and ⌈L×W×H×1000/divisor⌉ grams', () => {
    // docs/shipping.md: a 40 × 40 × 40 cm box of 500 g at divisor 6000 bills 10,667 g (64,000,000 / 6000 = 10,666.67).
    expect(billableWeightGrams(box(500, 40, 40, 40), 6000)).toBe(10_667);
    expect(billableWeightGrams(box(20_000, 40, 40, 40), 6000)).toBe(20_000);
    // Exactly divisible: no rounding up.
    expect(billableWeightGrams(box(1, 30, 20, 10), 6000)).toBe(1000);
    expect(billableWeightGrams(box(1, 30, 20, 10), 5000)).toBe(1200);
    // One cm³ over a whole gram rounds up to the next gram.
    expect(billableWeightGrams(box(0, 1, 1, 1), 6000)).toBe(1);
    expect(billableWeightGrams(box(0, 0, 0, 0), 6000)).toBe(0);
    expect(billableWeightGrams(box(7, 0, 0, 0), 6000)).toBe(7);
  });

  it('is null when the weight or the box is unknown, or beyond the safe integers', () => {
    expect(billableWeightGrams(box(null, 10, 10, 10), 6000)).toBeNull();
    expect(billableWeightGrams(box(100, null, null, null), 6000)).toBeNull();
    expect(billableWeightGrams(box(100, 10, 10, null), 6000)).toBeNull();
    const side = 2 ** 30;
    expect(billableWeightGrams(box(1, side, side, side), 1)).toBeNull();
  });
});

describe('estimated delivery date', () => {
  it('is today in UTC plus transit_days calendar days, across months, years and leap days', () => {
    expect(estimatedDeliveryDate(0, NOW)).toBe('2026-12-30');
    expect(estimatedDeliveryDate(2, NOW)).toBe('2027-01-01');
    expect(estimatedDeliveryDate(365, NOW)).toBe('2027-12-30');
    expect(estimatedDeliveryDate(1, new Date('2028-02-28T12:00:00Z'))).toBe('2028-02-29');
    // 23:30 in São Paulo is already the next day in UTC.
    expect(estimatedDeliveryDate(1, new Date('2026-03-01T23:30:00-03:00'))).toBe('2026-03-03');
    expect(estimatedDeliveryDate(null, NOW)).toBeNull();
  });
});

describe('judgeMethod', () => {
  const parcel = box(5000, 60, 40, 30);

  it('serves with the billable weight and the estimated date', () => {
    expect(judgeMethod(method({ transit_days: 3 }), parcel, new Set(['shz_a']), 'EUR', NOW)).toEqual({
      ok: true,
      method_id: 'shm_1',
      billable_weight_grams: 12_000,
      estimated_delivery_date: '2027-01-02',
      shipping_amount: 0,
    });
    expect(judgeMethod(method(), box(null, null, null, null), new Set(['shz_a']), 'EUR', NOW)).toEqual({
      ok: true,
      method_id: 'shm_1',
      billable_weight_grams: null,
      estimated_delivery_date: null,
      shipping_amount: 0,
    });
  });

  it('refuses with no_zone: none of its zones holds the code; with no zones of its own, a code in no zone at all', () => {
    expect(reason({ zone_ids: ['shz_a', 'shz_b'] }, parcel, ['shz_b'])).toBe('served');
    expect(reason({ zone_ids: ['shz_a'] }, parcel, ['shz_c'])).toBe('no_zone');
    expect(reason({ zone_ids: ['shz_a'] }, parcel, [])).toBe('no_zone');
    expect(reason({ zone_ids: [] }, parcel, ['shz_c'])).toBe('served');
    expect(reason({ zone_ids: [] }, parcel, [])).toBe('no_zone');
  });

  it('bounds the actual weight (never the volumetric one), a limit equal to it accepting', () => {
    expect(reason({ max_weight_grams: 5000 }, parcel)).toBe('served');
    expect(reason({ max_weight_grams: 4999 }, parcel)).toBe('too_heavy');
    // Volumetric 12,000 g over the limit: it only bills.
    expect(reason({ max_weight_grams: 6000 }, parcel)).toBe('served');
    expect(reason({ max_weight_grams: 1 }, box(null, 1, 1, 1))).toBe('unknown_weight');
    expect(reason({}, box(null, 1, 1, 1))).toBe('served');
  });

  it('bounds the longest, middle and shortest sides and their sum, each limit inclusive', () => {
    expect(reason({ max_length_cm: 60, max_width_cm: 40, max_height_cm: 30, max_dimensions_sum_cm: 130 }, parcel)).toBe('served');
    expect(reason({ max_length_cm: 59 }, parcel)).toBe('too_long');
    expect(reason({ max_width_cm: 39 }, parcel)).toBe('too_wide');
    expect(reason({ max_height_cm: 29 }, parcel)).toBe('too_tall');
    expect(reason({ max_dimensions_sum_cm: 129 }, parcel)).toBe('dimensions_sum');
    for (const limit of ['max_length_cm', 'max_width_cm', 'max_height_cm', 'max_dimensions_sum_cm'] as const) {
      expect([limit, reason({ [limit]: 1000 }, box(1, 10, null, 10))]).toEqual([limit, 'unknown_dimensions']);
    }
    // A method without a size limit accepts an unknown box; a weight limit alone does not look at it.
    expect(reason({ max_weight_grams: 10 }, box(1, null, null, null))).toBe('served');
  });

  it('gives the first failing rule in the documented order', () => {
    const all = { max_weight_grams: 1, max_length_cm: 1, max_width_cm: 1, max_height_cm: 1, max_dimensions_sum_cm: 1 };
    expect(reason({ ...all, active: false, zone_ids: ['shz_x'] }, parcel)).toBe('inactive');
    expect(reason({ ...all, zone_ids: ['shz_x'] }, box(null, null, null, null))).toBe('no_zone');
    expect(reason(all, box(null, null, null, null))).toBe('unknown_weight');
    expect(reason(all, box(2, null, null, null))).toBe('too_heavy');
    expect(reason({ ...all, max_weight_grams: null }, box(null, null, null, null))).toBe('unknown_dimensions');
    expect(reason(all, box(1, 2, 2, 2))).toBe('too_long');
    expect(reason({ ...all, max_length_cm: 2 }, box(1, 2, 2, 2))).toBe('too_wide');
    expect(reason({ ...all, max_length_cm: 2, max_width_cm: 2 }, box(1, 2, 2, 2))).toBe('too_tall');
    expect(reason({ ...all, max_length_cm: 2, max_width_cm: 2, max_height_cm: 2, max_dimensions_sum_cm: 5 }, box(1, 2, 2, 2))).toBe('dimensions_sum');
  });
});

describe('shipping price', () => {
  const bands = {
    currency: 'EUR',
    flat_amount: null,
    bands: [
      { up_to_grams: 1000, amount: 500 },
      { up_to_grams: 5000, amount: 900 },
    ],
  };

  it('charges the flat amount, or the first band holding the billable weight (bounds inclusive); nothing without rates', () => {
    expect(priceOf(null, null, null)).toEqual({ ok: true, amount: 0 });
    expect(priceOf({ currency: 'EUR', flat_amount: 1290, bands: null }, null, 'EUR')).toEqual({ ok: true, amount: 1290 });
    expect(priceOf(bands, 1, 'EUR')).toEqual({ ok: true, amount: 500 });
    expect(priceOf(bands, 1000, 'EUR')).toEqual({ ok: true, amount: 500 });
    expect(priceOf(bands, 1001, 'EUR')).toEqual({ ok: true, amount: 900 });
    expect(priceOf(bands, 5000, 'EUR')).toEqual({ ok: true, amount: 900 });
  });

  it('offers no price above the last band, without a billable weight, or in another currency', () => {
    expect(priceOf(bands, 5001, 'EUR')).toEqual({ ok: false, reason: 'above_last_band' });
    expect(priceOf(bands, null, 'EUR')).toEqual({ ok: false, reason: 'unknown_billable_weight' });
    expect(priceOf(bands, 10, 'BRL')).toEqual({ ok: false, reason: 'currency_mismatch' });
    expect(priceOf({ currency: 'EUR', flat_amount: 0, bands: null }, 10, null)).toEqual({ ok: false, reason: 'currency_mismatch' });
  });

  it('is judged after the limits: a method that cannot carry the parcel says so first', () => {
    const parcel = box(5000, 60, 40, 30);
    expect(judgeMethod(method({ rates: bands }), parcel, new Set(['shz_a']), 'EUR')).toMatchObject({ ok: false, reason: 'above_last_band' });
    expect(judgeMethod(method({ rates: bands, max_weight_grams: 10 }), parcel, new Set(['shz_a']), 'EUR')).toMatchObject({ reason: 'too_heavy' });
    // 60 × 40 × 30 at 6000: 12 kg billable, in a band up to 20 kg.
    const wide = { ...bands, bands: [...bands.bands, { up_to_grams: 20_000, amount: 2500 }] };
    expect(judgeMethod(method({ rates: wide }), parcel, new Set(['shz_a']), 'EUR')).toMatchObject({ ok: true, shipping_amount: 2500 });
  });

  it('takes exactly one form, bands strictly ascending', () => {
    expect(ratesOf({ currency: 'EUR', flat_amount: 0 })).toEqual({ currency: 'EUR', flat_amount: 0, bands: null });
    expect(refusal(() => ratesOf({ currency: 'EUR' }))).toContain('exactly one');
    expect(refusal(() => ratesOf({ currency: 'EUR', flat_amount: 1, bands: [{ up_to_grams: 1, amount: 1 }] }))).toContain('exactly one');
    const twice = [
      { up_to_grams: 1000, amount: 1 },
      { up_to_grams: 1000, amount: 2 },
    ];
    expect(refusal(() => ratesOf({ currency: 'EUR', bands: twice }))).toContain('validation_failed: rates.bands');
    expect(refusal(() => ratesOf({ currency: 'EUR', bands: [...twice].reverse().map((b, i) => ({ ...b, up_to_grams: 2000 - i * 500 })) }))).toContain(
      'ascending',
    );
  });
});
