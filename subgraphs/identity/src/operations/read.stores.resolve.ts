import { notFound, t, validationFailed, sqlOf } from '@backoffice/platform';
import { HOST_INPUT_MAX_LENGTH, normalizeHost } from '@backoffice/contracts';
import { defineIdentityOperation } from '../ports';

/**
 * Public: which store a storefront serves at a host (its `Host` header, port and case as they come).
 * Read from identity's own table on every call, so a host set, changed or cleared is followed at once.
 */
export const readStoresResolve = defineIdentityOperation({
  name: 'read.stores.resolve',
  kind: 'read',
  access: 'public',
  scope: null,
  summary:
    'Public (extension): the store routed at a host — store_id, handle and theme_key (null: the storefront uses ' +
    '`default`). The host is normalized as stored (lower case, no port, no trailing dot); 404 not_found when no ' +
    'store has it.',
  restPath: '/stores/resolve',
  input: t.object({ host: t.string({ minLength: 1, maxLength: HOST_INPUT_MAX_LENGTH }) }),
  result: t.object({ store_id: t.string(), handle: t.string(), theme_key: t.nullable(t.string()) }),
  events: [],
  async handler({ input, db }) {
    const host = normalizeHost(input.host);
    if (!host) throw validationFailed(`host ${JSON.stringify(input.host)} is not a host name`, { reason: 'pattern', field: 'host' });
    const [store] = await sqlOf(db).rows<{ store_id: string; handle: string; theme_key: string | null }>(
      `SELECT id AS store_id, handle, theme_key FROM identity.store WHERE host = $1`,
      [host],
    );
    if (!store) throw notFound(`no store is routed at ${host}`, { field: 'host' });
    return store;
  },
});
