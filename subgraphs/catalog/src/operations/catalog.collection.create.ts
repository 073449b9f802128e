import { conflict, newId, t } from '@backoffice/platform';
import { handle } from '../domain/products';
import { collectionCreated } from '../events';
import { defineCatalogOperation } from '../ports';

export const catalogCollectionCreate = defineCatalogOperation({
  name: 'catalog.collection.create',
  kind: 'command',
  access: 'internal',
  scope: 'catalog.product.write',
  summary: 'Creates a collection (a hand-picked set of products) with a handle unique in the tenant (extension).',
  input: t.object({ handle: handle(), title: t.string({ minLength: 1, maxLength: 200 }) }),
  result: t.object({ collection_id: t.string() }),
  events: [collectionCreated],
  async handler({ input, actor, sql, emit }) {
    const collectionId = newId('col');
    const row = await sql.one<{ id: string }>(
      `INSERT INTO catalog.collection (id, tenant_id, handle, title) VALUES ($1, $2, $3, $4) ON CONFLICT (tenant_id, handle) DO NOTHING RETURNING id`,
      [collectionId, actor.tenant_id, input.handle, input.title],
    );
    if (!row) throw conflict(`a collection with handle ${input.handle} exists already`, { reason: 'duplicate', field: 'handle' });
    emit(collectionCreated, { collection_id: collectionId, handle: input.handle });
    return { collection_id: collectionId };
  },
});
