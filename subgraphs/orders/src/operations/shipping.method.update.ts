import { assignments, conflict, sqlText, t } from '@backoffice/platform';
import { assertZones, METHOD_FIELDS, methodFields, methodOut, methodsOf, methodView, type MethodField } from '../domain/shipping';
import { ratesOf, sameRates } from '../domain/shipping-rates';
import { shippingConfigUpdated } from '../events';
import { defineOrdersOperation } from '../ports';

/** The method's plain columns the update may set (zone_ids lives in its own table; rates is a document, compared whole). */
const COLUMNS = METHOD_FIELDS.filter((f): f is Exclude<MethodField, 'zone_ids' | 'rates'> => f !== 'zone_ids' && f !== 'rates');

export const shippingMethodUpdate = defineOrdersOperation({
  name: 'shipping.method.update',
  kind: 'command',
  access: 'internal',
  scope: 'shipping.write',
  summary:
    'Changes a shipping method: any field of shipping.method.create, `active` included; omitted fields keep their ' +
    'value, null clears a limit, `zone_ids` replaces the zones it serves (empty: every zone), `rates` replaces ' +
    'what it charges (null: nothing). Emits only when a value changed (extension).',
  input: t.object({
    method_id: t.id(),
    name: t.optional(methodFields.name),
    dimensional_divisor: t.optional(methodFields.dimensional_divisor),
    active: methodFields.active,
    kind: methodFields.kind,
    carrier_id: methodFields.carrier_id,
    max_dimensions_sum_cm: methodFields.max_dimensions_sum_cm,
    max_height_cm: methodFields.max_height_cm,
    max_length_cm: methodFields.max_length_cm,
    max_weight_grams: methodFields.max_weight_grams,
    max_width_cm: methodFields.max_width_cm,
    transit_days: methodFields.transit_days,
    zone_ids: methodFields.zone_ids,
    rates: methodFields.rates,
  }),
  result: methodView,
  events: [shippingConfigUpdated],
  async handler({ input, actor, db, sql, emit }) {
    const tenantId = actor.tenant_id;
    const [locked] = await methodsOf(db, tenantId, { ids: [input.method_id], lock: true });
    if (!locked) throw conflict(`shipping method ${input.method_id} does not exist in this tenant`, { reason: 'not_found', field: 'method_id' });
    // Read again once locked: the zones a concurrent update committed while this one waited are
    // invisible to the locking statement's snapshot.
    const [method] = await methodsOf(db, tenantId, { ids: [input.method_id] });
    const changed: MethodField[] = [];
    const sets = assignments();
    for (const field of COLUMNS) {
      const value = input[field];
      if (value === undefined || value === method[field]) continue;
      changed.push(field);
      sets.add`${sqlText(field)} = ${value}`;
    }
    if (input.rates !== undefined) {
      const rates = input.rates && ratesOf(input.rates);
      if (!sameRates(rates, method.rates)) {
        changed.push('rates');
        sets.add`rates = ${rates && JSON.stringify(rates)}::jsonb`;
      }
    }
    const zoneIds = input.zone_ids && [...input.zone_ids].sort();
    if (zoneIds && zoneIds.join(',') !== [...method.zone_ids].sort().join(',')) {
      await assertZones(db, tenantId, zoneIds);
      changed.push('zone_ids');
      await sql.run(`DELETE FROM orders.shipping_method_zone WHERE method_id = $1`, [method.method_id]);
      await sql.run(`INSERT INTO orders.shipping_method_zone (method_id, zone_id) SELECT $1, z FROM unnest($2::text[]) AS z`, [method.method_id, zoneIds]);
    }
    if (!changed.length) return methodOut(method);
    sets.add`updated_at = now()`;
    await sql.run(`UPDATE orders.shipping_method SET ${sets.sql} WHERE id = ${sets.param(method.method_id)}`, sets.params);
    const [after] = await methodsOf(db, tenantId, { ids: [method.method_id] });
    emit(shippingConfigUpdated, { subject: 'method', change: 'updated', method_id: method.method_id, changed });
    return methodOut(after);
  },
});
