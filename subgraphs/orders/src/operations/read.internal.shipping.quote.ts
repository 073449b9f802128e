import { noStoreMessage } from '@backoffice/contracts';
import { present, notFound, t, validationFailed } from '@backoffice/platform';
import { distinctSkus, type StockLine } from '../domain/stock';
import {
  judgeMethod,
  METHODS_PER_TENANT,
  methodsOf,
  normalizePostalCode,
  parcelOf,
  postalCodeInput,
  REFUSAL_REASONS,
  ZONES_PER_TENANT,
  zonesContaining,
  methodKind,
  type Verdict,
} from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

/** At most this many lines in `items`, each of at most this many units (as order.create). */
const QUOTE_LINES = 100;
const QUOTE_QTY = 1000;

/** `<sku_id>:<qty>,…` → lines; anything else is validation_failed. */
function parseItems(text: string): StockLine[] {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > QUOTE_LINES) throw validationFailed(`items: at most ${QUOTE_LINES} lines`, { reason: 'too_long', field: 'items' });
  const lines = parts.map((part) => {
    const colon = part.lastIndexOf(':');
    const skuId = part.slice(0, colon);
    const qty = part.slice(colon + 1);
    if (colon < 1 || skuId.length > 200 || !/^[0-9]{1,4}$/.test(qty) || Number(qty) < 1 || Number(qty) > QUOTE_QTY) {
      throw validationFailed(`items: each line is <sku_id>:<qty> with qty 1 to ${QUOTE_QTY}, separated by commas ("${part.slice(0, 60)}" is not)`, {
        reason: 'pattern',
        field: 'items',
      });
    }
    return { sku_id: skuId, qty: Number(qty) };
  });
  distinctSkus(lines);
  return lines;
}

/** The items, given once: as the `items` text or as the `lines` list (same bounds). */
function linesOf(input: { items?: string; lines?: StockLine[] }): StockLine[] {
  if ((input.items === undefined) === (input.lines === undefined)) throw validationFailed('give the items once: either items or lines');
  if (input.items !== undefined) return parseItems(input.items);
  distinctSkus(input.lines ?? []);
  return input.lines ?? [];
}

/** A parcel figure (grams or centimetres); null when unknown. */
const figure = t.nullable(t.integer({ minimum: 0 }));

export const readInternalShippingQuote = defineOrdersOperation({
  name: 'read.internal.shipping.quote',
  kind: 'read',
  access: 'internal',
  scope: 'logistics.read',
  summary:
    'Quotes shipping of one parcel holding the items to a postal code: the active methods serving a zone that ' +
    'contains it, whose limits the parcel meets and whose rates price it, with billable weight, shipping_amount and estimated delivery date, and the ' +
    'active methods refused with their reason (extension). The items come as `items` text or as `lines` (REST: `line.<sku_id>=<qty>`), not both.',
  restPath: '/internal/shipping/quote',
  queryFamilies: { lines: 'line.' },
  queryFamilyKeys: { lines: { name: 'sku_id', value: 'qty' } },
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({
    store_id: t.id("the store's id or handle"),
    postal_code: postalCodeInput('where the parcel goes; normalized as zones are'),
    items: t.optional(
      t.string({
        minLength: 1,
        maxLength: 8000,
        description: `<sku_id>:<qty> lines separated by commas (at most ${QUOTE_LINES}, qty 1 to ${QUOTE_QTY}, distinct SKUs); or give lines`,
      }),
    ),
    lines: t.optional(
      t.array(t.object({ sku_id: t.id(), qty: t.integer({ minimum: 1, maximum: QUOTE_QTY }) }), {
        minItems: 1,
        maxItems: QUOTE_LINES,
        description: `the items as a list instead of items, same bounds: 1 to ${QUOTE_LINES} distinct SKUs, qty 1 to ${QUOTE_QTY} (extension)`,
      }),
    ),
  }),
  result: t.object({
    store_id: t.string(),
    postal_code: t.string({ description: 'normalized' }),
    currency: t.nullable(t.string({ description: 'the items’ currency, in which shipping_amount is; null when they are priced in several (extension)' })),
    zone_ids: t.array(t.string(), { maxItems: ZONES_PER_TENANT, description: 'the tenant’s zones containing the postal code' }),
    parcel: t.object(
      { weight_grams: figure, length_cm: figure, width_cm: figure, height_cm: figure },
      { description: 'actual weight and stacked box (length ≥ width ≥ height); null when an item’s figure is unknown' },
    ),
    methods: t.array(
      t.object({
        method_id: t.string(),
        name: t.string(),
        kind: methodKind(),
        carrier_id: t.nullable(t.string()),
        billable_weight_grams: t.nullable(
          t.integer({ minimum: 0, description: 'max(actual, length × width × height × 1000 / dimensional_divisor), rounded up; null when unknown' }),
        ),
        transit_days: t.nullable(t.integer()),
        estimated_delivery_date: t.nullable(t.string({ description: 'YYYY-MM-DD: today (UTC) plus transit_days; null when unknown' })),
        shipping_amount: t.integer({
          minimum: 0,
          description:
            'the price of this parcel in minor units of currency: the flat amount, the band holding the billable weight, or 0 without rates (extension)',
        }),
      }),
      { maxItems: METHODS_PER_TENANT },
    ),
    refused: t.array(t.object({ method_id: t.string(), name: t.string(), reason: t.enum(REFUSAL_REASONS, { name: 'ShippingRefusalReason' }) }), {
      maxItems: METHODS_PER_TENANT,
    }),
  }),
  events: [],
  async handler({ input, actor, db, ports }) {
    const tenantId = actor.tenant_id;
    const lines = linesOf(input);
    const code = normalizePostalCode(input.postal_code);
    const store = await ports.stores.resolve(input.store_id);
    // By id or handle, as every store a call names (a read: an unknown one is not_found).
    if (!store || store.tenant_id !== tenantId) throw notFound(noStoreMessage(input.store_id), { field: 'store_id' });
    const skus = new Map(
      (
        await ports.catalog.skus(
          tenantId,
          lines.map((l) => l.sku_id),
          store.store_id,
        )
      ).map((s) => [s.sku_id, s]),
    );
    const missing = lines.filter((l) => !skus.has(l.sku_id)).map((l) => l.sku_id);
    if (missing.length) throw notFound(`sku ${missing.join(', ')} does not exist in this tenant`, { field: 'items' });
    // What checkout would refuse is not quoted either.
    const skuOf = (id: string) => present(skus.get(id), `sku ${id}`);
    const unsold = lines.filter((l) => !skuOf(l.sku_id).active || !skuOf(l.sku_id).published).map((l) => l.sku_id);
    if (unsold.length)
      throw notFound(`sku ${unsold.join(', ')} is not for sale in store ${store.store_id} (inactive, or its product not published there)`, {
        reason: 'not_for_sale',
        field: 'items',
      });
    const parcel = parcelOf(lines.map((l) => ({ ...skuOf(l.sku_id), qty: l.qty })));
    const currencies = new Set(lines.map((l) => skuOf(l.sku_id).currency));
    const currency = currencies.size === 1 ? [...currencies][0] : null;
    const [zones, methods] = await Promise.all([zonesContaining(db, tenantId, code), methodsOf(db, tenantId, { activeOnly: true })]);
    const now = new Date();
    const judged = methods.map((method) => ({ method, verdict: judgeMethod(method, parcel, zones, currency, now) }));
    return {
      store_id: store.store_id,
      postal_code: code,
      currency,
      zone_ids: [...zones].sort(),
      parcel,
      methods: judged
        .filter((j): j is { method: (typeof methods)[number]; verdict: Extract<Verdict, { ok: true }> } => j.verdict.ok)
        .map(({ method, verdict }) => ({
          method_id: method.method_id,
          name: method.name,
          kind: method.kind,
          carrier_id: method.carrier_id,
          billable_weight_grams: verdict.billable_weight_grams,
          transit_days: method.transit_days,
          estimated_delivery_date: verdict.estimated_delivery_date,
          shipping_amount: verdict.shipping_amount,
        })),
      refused: judged.flatMap(({ method, verdict }) => (verdict.ok ? [] : [{ method_id: method.method_id, name: method.name, reason: verdict.reason }])),
    };
  },
});
