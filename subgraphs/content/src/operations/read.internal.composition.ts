import { storeOfTenant } from '@backoffice/contracts';
import { AppError, notFound, t } from '@backoffice/platform';
import { compositionFields, compositionView, effectiveComposition } from '../domain/composition';
import { defineContentOperation } from '../ports';

/** A store's effective composition: the tenant's manifests with the store's placements laid over their defaults. */
export const readInternalComposition = defineContentOperation({
  name: 'read.internal.composition',
  kind: 'read',
  access: 'internal',
  scope: 'content.read',
  summary:
    "A store's effective composition: every component of the tenant's extension manifests at the store's placement, or at its manifest default; by slot, position, extension, component (extension).",
  restPath: '/internal/composition',
  // A store that is not the caller's is not found (another tenant's is never told apart from none).
  errors: ['validation_failed', 'unauthorized', 'forbidden', 'not_found', 'internal'],
  input: t.object({ store: compositionFields.store }),
  result: compositionView,
  events: [],
  async handler({ input, actor, db, ports }) {
    const storeId = await storeOfTenant(ports.stores, actor.tenant_id, input.store, 'store').catch((error: unknown) => {
      throw error instanceof AppError && error.kind === 'conflict' ? notFound(error.message, { field: error.field }) : error;
    });
    return { store_id: storeId, items: await effectiveComposition(db, actor.tenant_id, storeId) };
  },
});
