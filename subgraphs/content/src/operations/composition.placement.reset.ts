import { storeOfTenant } from '@backoffice/contracts';
import { t } from '@backoffice/platform';
import { compositionFields, resetPlacement } from '../domain/composition';
import { compositionUpdated } from '../events';
import { defineContentOperation } from '../ports';

/**
 * The successor of the deprecated composition.placement.remove: the same change, and the answer
 * says where the hook sits now (its manifest default).
 */
export const compositionPlacementReset = defineContentOperation({
  name: 'composition.placement.reset',
  kind: 'command',
  access: 'internal',
  scope: 'composition.write',
  summary:
    "Returns a store's hook of an extension's component to its manifest default by deleting its placement; answers " +
    'whether one was deleted and where the hook sits now (`slot`, `position`; null when the manifest has no such ' +
    'component). Event only when something changed (extension; successor of composition.placement.remove).',
  input: t.object({ store: compositionFields.store, extension_id: compositionFields.extension_id, component: compositionFields.component }),
  result: t.object({ removed: t.boolean(), slot: t.nullable(t.string()), position: t.nullable(t.integer()) }),
  events: [compositionUpdated],
  async handler({ input, actor, db, emit, ports }) {
    return resetPlacement(db, emit, actor, await storeOfTenant(ports.stores, actor.tenant_id, input.store, 'store'), input);
  },
});
