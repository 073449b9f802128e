import { newId, t, validationFailed } from '@backoffice/platform';
import { assertZones, lockShippingConfig, methodFields, METHODS_PER_TENANT } from '../domain/shipping';
import { ratesOf } from '../domain/shipping-rates';
import { shippingConfigUpdated } from '../events';
import { defineOrdersOperation } from '../ports';

export const shippingMethodCreate = defineOrdersOperation({
  name: 'shipping.method.create',
  kind: 'command',
  access: 'internal',
  scope: 'shipping.write',
  summary:
    'Creates a carrier-agnostic shipping method with its own cubic divisor and weight and dimension limits; optional transit_days, zone_ids (the zones it serves, none: every zone) ' +
    'and rates (a flat amount or bands by billable weight; none: it costs 0).',
  input: t.object(methodFields),
  result: t.object({ method_id: t.string() }),
  events: [shippingConfigUpdated],
  async handler({ input, actor, db, sql, emit }) {
    const tenantId = actor.tenant_id;
    const zoneIds = input.zone_ids ?? [];
    const rates = input.rates ? ratesOf(input.rates) : null;
    await lockShippingConfig(db, tenantId);
    const [{ n }] = await sql.rows<{ n: number }>(`SELECT count(*)::int AS n FROM orders.shipping_method WHERE tenant_id = $1`, [tenantId]);
    if (n >= METHODS_PER_TENANT) throw validationFailed(`a tenant has at most ${METHODS_PER_TENANT} shipping methods`, { reason: 'limit_reached' });
    await assertZones(db, tenantId, zoneIds);
    const methodId = newId('shm');
    await sql.run(
      `WITH m AS (
         INSERT INTO orders.shipping_method (id, tenant_id, name, kind, active, carrier_id, dimensional_divisor, max_weight_grams, max_length_cm,
                                             max_width_cm, max_height_cm, max_dimensions_sum_cm, transit_days, rates)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $15) RETURNING id)
       INSERT INTO orders.shipping_method_zone (method_id, zone_id) SELECT m.id, z FROM m, unnest($14::text[]) AS z`,
      [
        methodId,
        tenantId,
        input.name,
        input.kind ?? 'delivery',
        input.active ?? true,
        input.carrier_id ?? null,
        input.dimensional_divisor,
        input.max_weight_grams ?? null,
        input.max_length_cm ?? null,
        input.max_width_cm ?? null,
        input.max_height_cm ?? null,
        input.max_dimensions_sum_cm ?? null,
        input.transit_days ?? null,
        zoneIds,
        rates && JSON.stringify(rates),
      ],
    );
    emit(shippingConfigUpdated, { subject: 'method', change: 'created', method_id: methodId });
    return { method_id: methodId };
  },
});
