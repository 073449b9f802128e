import { storeOfTenant } from '@backoffice/contracts';
import { present, conflict, newId, t, sqlOf } from '@backoffice/platform';
import { compositionFields, defaultOf, lockManifest } from '../domain/composition';
import { compositionUpdated } from '../events';
import { defineContentOperation } from '../ports';

/** Places an extension's component (hook) in a store: a slot and a position, overriding its manifest default. */
export const compositionPlacementSet = defineContentOperation({
  name: 'composition.placement.set',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'composition.write',
  summary:
    "Places a component of an extension's manifest in a store of the tenant (`store`: id or handle) at a slot and " +
    'position, overriding its manifest default; setting the same again changes nothing (extension).',
  input: t.object({
    store: compositionFields.store,
    extension_id: compositionFields.extension_id,
    component: compositionFields.component,
    slot: compositionFields.slot,
    position: compositionFields.position,
  }),
  result: t.object({ placement_id: t.string() }),
  events: [compositionUpdated],
  async handler({ input, actor, db, emit, stage, ports }) {
    const tenantId = actor.tenant_id;
    const storeId = await storeOfTenant(ports.stores, actor.tenant_id, input.store, 'store');
    const manifest = await lockManifest(db, tenantId, input.extension_id);
    if (!manifest) throw conflict(`extension ${input.extension_id} has no manifest in this tenant`, { reason: 'not_found', field: 'extension_id' });
    if (!defaultOf(manifest, input.component))
      throw conflict(`extension ${input.extension_id} has no component ${input.component} in its manifest`, { reason: 'not_found', field: 'component' });
    const lockPlacement = async () =>
      (
        await sqlOf(db).rows<{ id: string; slot: string; position: number }>(
          `SELECT id, slot, position FROM content.composition_placement WHERE tenant_id = $1 AND store_id = $2 AND extension_id = $3 AND component = $4 FOR UPDATE`,
          [tenantId, storeId, input.extension_id, input.component],
        )
      )[0];
    let current = await lockPlacement();
    let placementId = current?.id;
    if (!current) {
      // A first placement; when another committed meanwhile, this one moves it instead (the unique key says so).
      const [made] = await sqlOf(db).rows<{ id: string }>(
        `INSERT INTO content.composition_placement (id, tenant_id, store_id, extension_id, component, slot, position) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (tenant_id, store_id, extension_id, component) DO NOTHING RETURNING id`,
        [newId('plc'), tenantId, storeId, input.extension_id, input.component, input.slot, input.position],
      );
      placementId = made?.id;
      if (!made) current = await lockPlacement();
    }
    if (current) {
      if (current.slot === input.slot && current.position === input.position) return { placement_id: current.id };
      placementId = current.id;
      stage(`UPDATE content.composition_placement SET slot = $2, position = $3, updated_at = clock_timestamp() WHERE id = $1`, [
        current.id,
        input.slot,
        input.position,
      ]);
    }
    emit(compositionUpdated, {
      store_id: storeId,
      extension_id: input.extension_id,
      component: input.component,
      change: 'placed',
      placement_id: present(placementId, 'the placement'),
      slot: input.slot,
      position: input.position,
    });
    return { placement_id: present(placementId, 'the placement') };
  },
});
