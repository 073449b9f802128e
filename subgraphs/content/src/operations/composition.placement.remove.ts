import { storeOfTenant } from '@backoffice/contracts';
import { t } from '@backoffice/platform';
import { compositionFields, resetPlacement } from '../domain/composition';
import { compositionUpdated } from '../events';
import { defineContentOperation } from '../ports';

/** The reference's deprecated command: deletes a placement, the hook reverts to its manifest default. */
export const compositionPlacementRemove = defineContentOperation({
  name: 'composition.placement.remove',
  kind: 'command',
  access: 'internal',
  scope: 'composition.write',
  deprecated: true,
  successor: 'composition.placement.reset',
  summary:
    "Deletes a store's placement of an extension's component: the hook reverts to its manifest default. `removed: false` (still a success) when there was none. Event only when something changed.",
  input: t.object({ store: compositionFields.store, extension_id: compositionFields.extension_id, component: compositionFields.component }),
  result: t.object({ removed: t.boolean() }),
  events: [compositionUpdated],
  async handler({ input, actor, db, emit, ports }) {
    const { removed } = await resetPlacement(db, emit, actor, await storeOfTenant(ports.stores, actor.tenant_id, input.store, 'store'), input);
    return { removed };
  },
});
