import { connectionArgs, connectionOf, escapeLike, mapNodes, t, conditions } from '@backoffice/platform';
import { storeView, storeViewOf } from '../domain/stores';
import type { Store } from '../entities';
import { defineIdentityOperation } from '../ports';

/** The admin's store list as a Relay connection (GraphQL only): `read.internal.stores` stays the paged read of REST. */
export const adminStores = defineIdentityOperation({
  name: 'admin.stores',
  kind: 'read',
  access: 'internal',
  scope: null,
  summary:
    "The tenant's stores as a Relay connection, oldest first unless ordered otherwise, for any valid key of the tenant; `q` searches name, handle " +
    'and host; notification_reply_to is masked without pii.read.',
  connection: { field: 'stores' },
  input: connectionArgs(
    'Store',
    ['created_at', 'name', 'handle'] as const,
    t.object({ q: t.optional(t.string({ minLength: 1, maxLength: 200, description: 'searches name, handle and host' })) }),
  ),
  result: connectionOf(storeView, 'Store'),
  events: [],
  async handler({ input, actor, sql }) {
    const where = conditions().add`s.tenant_id = ${actor.tenant_id}`;
    const { q } = input.filter ?? {};
    if (q) {
      const like = where.param(`%${escapeLike(q)}%`);
      where.add`(s.name ILIKE ${like} OR s.handle ILIKE ${like} OR s.host ILIKE ${like})`;
    }
    const page = await sql.connection<Store>(
      {
        select: 's.*',
        from: 'identity.store s',
        where: where.sql,
        params: where.params,
        sorts: {
          created_at: { sql: 's.created_at', type: 'timestamptz' },
          name: { sql: 's.name', type: 'text' },
          handle: { sql: 's.handle', type: 'text' },
        },
        defaultOrder: { field: 'created_at', direction: 'ASC' },
        id: 's.id',
      },
      input,
    );
    return mapNodes(page, (row) => storeViewOf(row, actor));
  },
});
