import { present, notFound, t, validationFailed } from '@backoffice/platform';
import { distinctSkus } from '../domain/stock';
import {
  judgeMethod,
  methodsOf,
  normalizePostalCode,
  parcelOf,
  postalCodeInput,
  REFUSAL_REASONS,
  zonesContaining,
  methodKind,
  type Verdict,
} from '../domain/shipping';
import { defineOrdersOperation } from '../ports';

/** At most this many lines in `items`, each of at most this many units (as order.create). */
const QUOTE_LINES = 100;
const QUOTE_QTY = 1000;

/** `<sku_id>:<qty>,…` → lines; anything else is validation_failed. */
function parseItems(text: string): Array<{ sku_id: string; qty: number }> {
  const parts = text.split(',').map((p) => p.trim());
  if (parts.length > QUOTE_LINES) throw validationFailed(`items: at most ${QUOTE_LINES} lines`);
  const lines = parts.map((part) => {
    const colon = part.lastIndexOf(':');
    const skuId = part.slice(0, colon);
    const qty = part.slice(colon + 1);
    if (colon < 1 || skuId.length > 200 || !/^[0-9]{1,4}$/.test(qty) || Number(qty) < 1 || Number(qty) > QUOTE_QTY) {
      throw validationFailed(`items: each line is <sku_id>:<qty> with qty 1 to ${QUOTE_QTY}, separated by commas ("${part.slice(0, 60)}" is not)`);
    }
    return { sku_id: skuId, qty: Number(qty) };
  });
  distinctSkus(lines);
  return lines;
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
    'contains it and whose limits the parcel meets, with billable weight and estimated delivery date, and the ' +
    'active methods refused with their reason (extension).',
  restPath: '/internal/shipping/quote',
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({
    store_id: t.id(),
    postal_code: postalCodeInput('where the parcel goes; normalized as zones are'),
    items: t.string({
      minLength: 1,
      maxLength: 8000,
      description: `<sku_id>:<qty> lines separated by commas (at most ${QUOTE_LINES}, qty 1 to ${QUOTE_QTY}, distinct SKUs)`,
    }),
  }),
  result: t.object({
    store_id: t.string(),
    postal_code: t.string({ description: 'normalized' }),
    zone_ids: t.array(t.string(), { description: 'the tenant’s zones containing the postal code' }),
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
      }),
    ),
    refused: t.array(t.object({ method_id: t.string(), name: t.string(), reason: t.enum(REFUSAL_REASONS, { name: 'ShippingRefusalReason' }) })),
  }),
  events: [],
  async handler({ input, actor, db, ports }) {
    const tenantId = actor.tenant_id;
    const lines = parseItems(input.items);
    const code = normalizePostalCode(input.postal_code);
    const store = await ports.stores.resolve(input.store_id);
    if (!store || store.tenant_id !== tenantId || store.store_id !== input.store_id) throw notFound(`store ${input.store_id} does not exist in this tenant`);
    const skus = new Map(
      (
        await ports.catalog.skus(
          tenantId,
          lines.map((l) => l.sku_id),
          input.store_id,
        )
      ).map((s) => [s.sku_id, s]),
    );
    const missing = lines.filter((l) => !skus.has(l.sku_id)).map((l) => l.sku_id);
    if (missing.length) throw notFound(`sku ${missing.join(', ')} does not exist in this tenant`);
    // What checkout would refuse is not quoted either.
    const skuOf = (id: string) => present(skus.get(id), `sku ${id}`);
    const unsold = lines.filter((l) => !skuOf(l.sku_id).active || !skuOf(l.sku_id).published).map((l) => l.sku_id);
    if (unsold.length) throw notFound(`sku ${unsold.join(', ')} is not for sale in store ${input.store_id} (inactive, or its product not published there)`);
    const parcel = parcelOf(lines.map((l) => ({ ...skuOf(l.sku_id), qty: l.qty })));
    const [zones, methods] = await Promise.all([zonesContaining(db, tenantId, code), methodsOf(db, tenantId, { activeOnly: true })]);
    const now = new Date();
    const judged = methods.map((method) => ({ method, verdict: judgeMethod(method, parcel, zones, now) }));
    return {
      store_id: input.store_id,
      postal_code: code,
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
        })),
      refused: judged.flatMap(({ method, verdict }) => (verdict.ok ? [] : [{ method_id: method.method_id, name: method.name, reason: verdict.reason }])),
    };
  },
});
