import { t, type Actor, type EventPayload, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import { compositionUpdated } from '../events';
import type { CompositionPlacement } from '../entities';

/**
 * Composition: where an extension's components (hooks) sit in a store's storefront. Each
 * extension's manifest gives every component a default slot and position; a placement overrides
 * them for one store; removing the placement returns the hook to its manifest default. The
 * effective composition of a store is the manifests of the tenant with its placements laid over.
 */

export const MANIFEST_MAX_COMPONENTS = 50;
export const MANIFESTS_MAX = 100;
/** A store's effective hooks: one per component of each manifest. */
const COMPOSITION_HOOKS_MAX = MANIFESTS_MAX * MANIFEST_MAX_COMPONENTS;
export const POSITION_MAX = 1_000_000;

export const compositionFields = {
  extension_id: t.string({ minLength: 1, maxLength: 200 }),
  component: t.string({ minLength: 1, maxLength: 120, description: 'a component of the extension’s manifest' }),
  slot: t.string({ minLength: 1, maxLength: 120, description: 'where the hook is placed in the storefront' }),
  position: t.integer({ minimum: -POSITION_MAX, maximum: POSITION_MAX, description: 'order within the slot, lowest first' }),
  store: t.string({ minLength: 1, maxLength: 200, description: 'id, handle or host of a store of the tenant' }),
};

export interface ManifestComponent {
  component: string;
  slot: string;
  position: number;
}

/** The extension's manifest, locked against a concurrent register (or null when it has none). */
export async function lockManifest(db: EntityManager, tenantId: string, extensionId: string): Promise<ManifestComponent[] | null> {
  const rows = await sqlOf(db).rows<{
    components: ManifestComponent[];
  }>(`SELECT components FROM content.extension_manifest WHERE tenant_id = $1 AND extension_id = $2 FOR SHARE`, [tenantId, extensionId]);
  return rows[0]?.components ?? null;
}

/** The manifest default of a component: where the hook sits without a placement (null: not in a manifest). */
export function defaultOf(manifest: ManifestComponent[] | null, component: string): { slot: string; position: number } | null {
  const entry = manifest?.find((c) => c.component === component);
  return entry ? { slot: entry.slot, position: entry.position } : null;
}

export type PlacementRow = Pick<CompositionPlacement, 'id' | 'store_id' | 'extension_id' | 'component' | 'slot' | 'position'>;

/**
 * Deletes a store's placement of a component (locked first), returning it; null when there was none.
 * What `composition.placement.remove` and its successor `composition.placement.reset` share.
 */
export async function deletePlacement(
  db: EntityManager,
  tenantId: string,
  storeId: string,
  extensionId: string,
  component: string,
): Promise<PlacementRow | null> {
  const rows = await sqlOf(db).returning<PlacementRow>(
    `DELETE FROM content.composition_placement WHERE tenant_id = $1 AND store_id = $2 AND extension_id = $3 AND component = $4
       RETURNING id, store_id, extension_id, component, slot, position`,
    [tenantId, storeId, extensionId, component],
  );
  return rows[0] ?? null;
}

/**
 * A store's hook of an extension's component back to its manifest default: its placement deleted,
 * `composition.updated` when there was one. Answers whether one was deleted and where the hook sits
 * now (null when the manifest has no such component). Both `composition.placement.reset` and the
 * deprecated `composition.placement.remove` are this.
 */
export async function resetPlacement(
  db: EntityManager,
  emit: (event: typeof compositionUpdated, payload: EventPayload<typeof compositionUpdated>) => void,
  actor: Actor,
  storeId: string,
  input: { extension_id: string; component: string },
): Promise<{ removed: boolean; slot: string | null; position: number | null }> {
  const manifest = await lockManifest(db, actor.tenant_id, input.extension_id);
  const removed = await deletePlacement(db, actor.tenant_id, storeId, input.extension_id, input.component);
  const fallback = defaultOf(manifest, input.component);
  const now = { slot: fallback?.slot ?? null, position: fallback?.position ?? null };
  if (removed) {
    emit(compositionUpdated, {
      store_id: storeId,
      extension_id: input.extension_id,
      component: input.component,
      change: 'removed',
      placement_id: removed.id,
      ...now,
    });
  }
  return { removed: removed !== null, ...now };
}

const hook = t.entity('CompositionHook', {
  extension_id: t.string(),
  component: t.string(),
  slot: t.string(),
  position: t.integer(),
  source: t.enum(['manifest', 'placement'] as const, { description: 'the manifest default, or a placement of the store' }),
  placement_id: t.nullable(t.string()),
});

/** A store's effective composition (read.internal.composition, and `Store.composition`). */
export const compositionView = t.entity('Composition', { store_id: t.string(), items: t.array(hook, { maxItems: COMPOSITION_HOOKS_MAX }) });

export interface EffectiveHook {
  extension_id: string;
  component: string;
  slot: string;
  position: number;
  source: 'manifest' | 'placement';
  placement_id: string | null;
}

/** A store's effective composition: every manifest component at its placement, or its default; by slot, position, extension, component. */
export async function effectiveComposition(db: EntityManager, tenantId: string, storeId: string): Promise<EffectiveHook[]> {
  return (await effectiveCompositions(db, tenantId, [storeId])).get(storeId) ?? [];
}

/** The effective composition of several stores of the tenant in one statement, by store id. */
export async function effectiveCompositions(
  db: Pick<EntityManager, 'query'>,
  tenantId: string,
  storeIds: readonly string[],
): Promise<Map<string, EffectiveHook[]>> {
  const rows = await sqlOf(db).rows<EffectiveHook & { store_id: string }>(
    `SELECT s.id AS store_id, m.extension_id, c.component, coalesce(p.slot, c.slot) AS slot, coalesce(p.position, c.position) AS position,
            CASE WHEN p.id IS NULL THEN 'manifest' ELSE 'placement' END AS source, p.id AS placement_id
     FROM unnest($2::text[]) AS s(id)
     CROSS JOIN content.extension_manifest m
     CROSS JOIN LATERAL jsonb_to_recordset(m.components) AS c(component text, slot text, position integer)
     LEFT JOIN content.composition_placement p
       ON p.tenant_id = m.tenant_id AND p.store_id = s.id AND p.extension_id = m.extension_id AND p.component = c.component
     WHERE m.tenant_id = $1
     ORDER BY s.id, coalesce(p.slot, c.slot) COLLATE "C", coalesce(p.position, c.position), m.extension_id COLLATE "C", c.component COLLATE "C"`,
    [tenantId, storeIds],
  );
  const byStore = new Map<string, EffectiveHook[]>(storeIds.map((id) => [id, []]));
  for (const { store_id, ...hook } of rows) byStore.get(store_id)?.push(hook);
  return byStore;
}
