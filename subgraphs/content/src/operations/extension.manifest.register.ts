import { conflict, t, validationFailed } from '@backoffice/platform';
import { compositionFields, MANIFEST_MAX_COMPONENTS, MANIFESTS_MAX, type ManifestComponent } from '../domain/composition';
import { compositionUpdated, manifestRegistered } from '../events';
import { defineContentOperation } from '../ports';

/**
 * Registers an extension's manifest in the tenant: its components with their default slot and
 * position. Registering again replaces the list; placements of components it no longer has are
 * deleted with it (their stores get composition.updated).
 */
export const extensionManifestRegister = defineContentOperation({
  name: 'extension.manifest.register',
  kind: 'command',
  access: 'internal',
  scope: 'extensions.write',
  summary:
    "Registers an extension's manifest: its components, each with its default slot and position (where the hook " +
    'sits without a placement). Registering again replaces it; placements of components it drops are deleted ' +
    '(extension).',
  input: t.object({
    extension_id: compositionFields.extension_id,
    components: t.array(t.object({ component: compositionFields.component, slot: compositionFields.slot, position: compositionFields.position }), {
      maxItems: MANIFEST_MAX_COMPONENTS,
      description: 'no component twice',
    }),
  }),
  result: t.object({ extension_id: t.string(), created: t.boolean(), changed: t.boolean(), dropped_placements: t.integer({ minimum: 0 }) }),
  events: [manifestRegistered, compositionUpdated],
  async handler({ input, actor, db, sql, emit, stage }) {
    const tenantId = actor.tenant_id;
    const names = input.components.map((c) => c.component);
    const twice = names.find((name, i) => names.indexOf(name) !== i);
    if (twice !== undefined) throw validationFailed(`components names ${twice} twice`, { reason: 'duplicate', field: 'components' });
    const components: ManifestComponent[] = input.components.map(({ component, slot, position }) => ({ component, slot, position }));
    // The tenant's manifests are serialized per extension by the row lock (a first register by the advisory lock).
    await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 11))`, [`content.manifest:${tenantId}:${input.extension_id}`]);
    const [current] = await sql.rows<{ components: ManifestComponent[] }>(
      `SELECT components FROM content.extension_manifest WHERE tenant_id = $1 AND extension_id = $2 FOR UPDATE`,
      [tenantId, input.extension_id],
    );
    if (!current) {
      // A first register counts against the tenant's cap: new extensions of one tenant take turns.
      await db.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 11))`, [`content.manifests:${tenantId}`]);
      const [{ count }] = await sql.rows<{ count: number }>(`SELECT count(*)::int AS count FROM content.extension_manifest WHERE tenant_id = $1`, [tenantId]);
      if (count >= MANIFESTS_MAX) throw conflict(`the tenant has ${MANIFESTS_MAX} extension manifests already`, { reason: 'limit_reached' });
    }
    // jsonb keeps its own key order: compared field by field.
    const shape = (list: ManifestComponent[]) => JSON.stringify(list.map((c) => [c.component, c.slot, c.position]));
    const changed = !current || shape(current.components) !== shape(components);
    if (!changed) return { extension_id: input.extension_id, created: false, changed: false, dropped_placements: 0 };
    // Placements of components the manifest no longer has go with it.
    const dropped = await sql.returning<{ id: string; store_id: string; component: string }>(
      `DELETE FROM content.composition_placement WHERE tenant_id = $1 AND extension_id = $2 AND NOT (component = ANY($3::text[]))
         RETURNING id, store_id, component`,
      [tenantId, input.extension_id, names],
    );
    stage(
      `INSERT INTO content.extension_manifest (tenant_id, extension_id, components) VALUES ($1, $2, $3)
       ON CONFLICT (tenant_id, extension_id) DO UPDATE SET components = EXCLUDED.components, updated_at = clock_timestamp()`,
      [tenantId, input.extension_id, JSON.stringify(components)],
    );
    emit(manifestRegistered, { extension_id: input.extension_id, components, created: !current, dropped_placements: dropped.length });
    for (const placement of dropped) {
      emit(compositionUpdated, {
        store_id: placement.store_id,
        extension_id: input.extension_id,
        component: placement.component,
        change: 'removed',
        placement_id: placement.id,
        slot: null,
        position: null,
      });
    }
    return { extension_id: input.extension_id, created: !current, changed: true, dropped_placements: dropped.length };
  },
});
