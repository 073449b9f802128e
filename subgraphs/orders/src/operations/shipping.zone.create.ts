import { newId, t, validationFailed } from '@backoffice/platform';
import { lockShippingConfig, postalCodeInput, zoneRange, ZONES_PER_TENANT } from '../domain/shipping';
import { shippingConfigUpdated } from '../events';
import { defineOrdersOperation } from '../ports';

export const shippingZoneCreate = defineOrdersOperation({
  name: 'shipping.zone.create',
  kind: 'command',
  access: 'internal',
  scope: 'shipping.write',
  summary:
    'Creates a zone as an inclusive postal-code range. Codes are normalized on write (trimmed, upper case, spaces ' +
    'and hyphens removed); both bounds must then have the same length and from must not be after to (compared as ' +
    'text).',
  input: t.object({
    name: t.string({ minLength: 1, maxLength: 200 }),
    postal_code_from: postalCodeInput(),
    postal_code_to: postalCodeInput(),
  }),
  result: t.object({ zone_id: t.string() }),
  events: [shippingConfigUpdated],
  async handler({ input, actor, db, sql, emit }) {
    const range = zoneRange(input.postal_code_from, input.postal_code_to);
    const tenantId = actor.tenant_id;
    await lockShippingConfig(db, tenantId);
    const [{ n }] = await sql.rows<{ n: number }>(`SELECT count(*)::int AS n FROM orders.shipping_zone WHERE tenant_id = $1`, [tenantId]);
    if (n >= ZONES_PER_TENANT) throw validationFailed(`a tenant has at most ${ZONES_PER_TENANT} shipping zones`, { reason: 'limit_reached' });
    const zoneId = newId('shz');
    await sql.run(`INSERT INTO orders.shipping_zone (id, tenant_id, name, postal_code_from, postal_code_to) VALUES ($1, $2, $3, $4, $5)`, [
      zoneId,
      tenantId,
      input.name,
      range.postal_code_from,
      range.postal_code_to,
    ]);
    emit(shippingConfigUpdated, { subject: 'zone', change: 'created', zone_id: zoneId });
    return { zone_id: zoneId };
  },
});
