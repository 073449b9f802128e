import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { CreatedTenant } from '@backoffice/identity';
import { newId } from '@backoffice/platform';
import { mcpClient, startTestSystem, type TestSystem } from './helpers';

/**
 * Composition over real HTTP on real PostgreSQL: extension manifests, placements (set, the
 * reference's deprecated remove and its successor reset), a store's effective composition, events,
 * isolation between tenants, and the deprecation of remove on every surface.
 */
let t: TestSystem;
let shop: CreatedTenant;
let handle: string;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  handle = `shop-${newId('x').slice(-10).toLowerCase()}`;
  shop = await t.newTenant(handle);
});

const call = (name: string, input: unknown, token: string | null = shop.token) => t.command(name, input, token);
const ok = (name: string, input: unknown, token: string | null = shop.token) => t.ok(name, input, token);
const refused = async (res: Promise<{ status: number; body: any }>, status: number, kind: string) => {
  const r = await res;
  expect([r.status, r.body?.error?.kind]).toEqual([status, kind]);
  return r.body;
};
const eventsOf = async (type: string, token = shop.token) => {
  await t.system.runtimes.get('content')!.relay.kick();
  const res = await t.read('/internal/events', { type, limit: '100' }, token);
  expect(res.status).toBe(200);
  return (res.body as { items: any[] }).items.map((e) => e.payload).reverse();
};
const composition = async (store: string, token = shop.token) => {
  const res = await t.read('/internal/composition', { store }, token);
  if (res.status !== 200) throw new Error(`composition: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { store_id: string; items: any[] };
};
const keyWith = async (name: string, ...scopes: string[]) => (await ok('iam.api_key.create', { name, scopes })).token as string;
const manifest = (
  extension_id = 'ext.reviews',
  components = [
    { component: 'stars', slot: 'product.below_title', position: 10 },
    { component: 'list', slot: 'product.footer', position: 0 },
  ],
) => ok('extension.manifest.register', { extension_id, components });

describe('extension.manifest.register', () => {
  it('registers, changes nothing when registered the same, replaces, and bounds its input', async () => {
    expect(await manifest()).toEqual({ extension_id: 'ext.reviews', created: true, changed: true, dropped_placements: 0 });
    expect(await manifest()).toEqual({ extension_id: 'ext.reviews', created: false, changed: false, dropped_placements: 0 });
    const events = await eventsOf('extension.manifest.registered');
    expect(events).toEqual([{ extension_id: 'ext.reviews', components: expect.any(Array), created: true, dropped_placements: 0 }]);

    await refused(
      call('extension.manifest.register', {
        extension_id: 'ext.x',
        components: [
          { component: 'a', slot: 's', position: 1 },
          { component: 'a', slot: 't', position: 2 },
        ],
      }),
      400,
      'validation_failed',
    );
    await refused(
      call('extension.manifest.register', {
        extension_id: 'ext.x',
        components: Array.from({ length: 51 }, (_, i) => ({ component: `c${i}`, slot: 's', position: i })),
      }),
      400,
      'validation_failed',
    );
    await refused(
      call('extension.manifest.register', { extension_id: 'ext.x', components: [{ component: 'a', slot: '', position: 1 }] }),
      400,
      'validation_failed',
    );
    await refused(
      call('extension.manifest.register', { extension_id: 'ext.x', components: [{ component: 'a', slot: 's', position: 1.5 }] }),
      400,
      'validation_failed',
    );
    await refused(
      call('extension.manifest.register', { extension_id: 'ext.x', components: [{ component: 'a', slot: 's', position: 2_000_000 }] }),
      400,
      'validation_failed',
    );
    await refused(call('extension.manifest.register', { extension_id: '', components: [] }), 400, 'validation_failed');
    await refused(
      call('extension.manifest.register', { extension_id: 'ext.x', components: [] }, await keyWith('placer', 'composition.write')),
      403,
      'forbidden',
    );
  });

  it('drops the placements of components it no longer has, telling their stores', async () => {
    await manifest();
    const { placement_id } = await ok('composition.placement.set', {
      store: shop.store_id,
      extension_id: 'ext.reviews',
      component: 'list',
      slot: 'home.main',
      position: 3,
    });
    expect(await manifest('ext.reviews', [{ component: 'stars', slot: 'product.below_title', position: 10 }])).toEqual({
      extension_id: 'ext.reviews',
      created: false,
      changed: true,
      dropped_placements: 1,
    });
    const updates = await eventsOf('composition.updated');
    expect(updates[updates.length - 1]).toEqual({
      store_id: shop.store_id,
      extension_id: 'ext.reviews',
      component: 'list',
      change: 'removed',
      placement_id,
      slot: null,
      position: null,
    });
    expect((await composition(shop.store_id)).items).toEqual([
      { extension_id: 'ext.reviews', component: 'stars', slot: 'product.below_title', position: 10, source: 'manifest', placement_id: null },
    ]);
  });
});

describe('composition.placement.set and the effective composition', () => {
  it('places a hook by store id or handle, moves it keeping its id, and the read merges placements over defaults', async () => {
    await manifest();
    await manifest('ext.chat', [{ component: 'bubble', slot: 'global.corner', position: 0 }]);
    expect(await composition(handle)).toEqual({
      store_id: shop.store_id,
      items: [
        { extension_id: 'ext.chat', component: 'bubble', slot: 'global.corner', position: 0, source: 'manifest', placement_id: null },
        { extension_id: 'ext.reviews', component: 'stars', slot: 'product.below_title', position: 10, source: 'manifest', placement_id: null },
        { extension_id: 'ext.reviews', component: 'list', slot: 'product.footer', position: 0, source: 'manifest', placement_id: null },
      ],
    });

    const placed = await ok('composition.placement.set', {
      store: handle,
      extension_id: 'ext.reviews',
      component: 'stars',
      slot: 'product.footer',
      position: -1,
    });
    expect(placed).toEqual({ placement_id: expect.stringMatching(/^plc_/) });
    expect((await composition(shop.store_id)).items).toEqual([
      { extension_id: 'ext.chat', component: 'bubble', slot: 'global.corner', position: 0, source: 'manifest', placement_id: null },
      { extension_id: 'ext.reviews', component: 'stars', slot: 'product.footer', position: -1, source: 'placement', placement_id: placed.placement_id },
      { extension_id: 'ext.reviews', component: 'list', slot: 'product.footer', position: 0, source: 'manifest', placement_id: null },
    ]);
    // The same again: nothing changes, no event. Moved: same id, one more event.
    expect(
      await ok('composition.placement.set', { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars', slot: 'product.footer', position: -1 }),
    ).toEqual(placed);
    expect(
      await ok('composition.placement.set', { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars', slot: 'product.footer', position: 5 }),
    ).toEqual(placed);
    expect(await eventsOf('composition.updated')).toEqual([
      {
        store_id: shop.store_id,
        extension_id: 'ext.reviews',
        component: 'stars',
        change: 'placed',
        placement_id: placed.placement_id,
        slot: 'product.footer',
        position: -1,
      },
      {
        store_id: shop.store_id,
        extension_id: 'ext.reviews',
        component: 'stars',
        change: 'placed',
        placement_id: placed.placement_id,
        slot: 'product.footer',
        position: 5,
      },
    ]);
    expect(await t.sql(`SELECT count(*)::int AS n FROM content.composition_placement WHERE tenant_id = $1`, [shop.tenant_id])).toEqual([{ n: 1 }]);
  });

  it('refuses what it cannot place, with the right kinds', async () => {
    await manifest();
    const base = { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars', slot: 's', position: 1 };
    await refused(call('composition.placement.set', { ...base, extension_id: 'ext.unknown' }), 409, 'conflict');
    await refused(call('composition.placement.set', { ...base, component: 'nope' }), 409, 'conflict');
    await refused(call('composition.placement.set', { ...base, store: 'no-such-store' }), 409, 'conflict');
    await refused(call('composition.placement.set', { ...base, position: 'first' }), 400, 'validation_failed');
    await refused(call('composition.placement.set', { ...base, slot: 'x'.repeat(121) }), 400, 'validation_failed');
    const { store, ...withoutStore } = base;
    void store;
    await refused(call('composition.placement.set', withoutStore), 400, 'validation_failed');
    await refused(call('composition.placement.set', base, await keyWith('reader', 'content.read')), 403, 'forbidden');
    await refused(call('composition.placement.set', base, null), 401, 'unauthorized');
    await refused(t.read('/internal/composition', { store: shop.store_id }, await keyWith('placer', 'composition.write')), 403, 'forbidden');
    await refused(t.read('/internal/composition', { store: 'no-such-store' }), 404, 'not_found');
    await refused(t.read('/internal/composition', {}), 400, 'validation_failed');
  });

  it('keeps tenants apart', async () => {
    const otherHandle = `other-${newId('x').slice(-10).toLowerCase()}`;
    const other = await t.newTenant(otherHandle);
    await manifest();
    await ok('extension.manifest.register', { extension_id: 'ext.theirs', components: [{ component: 'banner', slot: 'home.top', position: 0 }] }, other.token);
    // Another tenant's store, by id or handle, is as unknown as none.
    await refused(
      call('composition.placement.set', { store: other.store_id, extension_id: 'ext.reviews', component: 'stars', slot: 's', position: 1 }),
      409,
      'conflict',
    );
    await refused(
      call('composition.placement.set', { store: otherHandle, extension_id: 'ext.reviews', component: 'stars', slot: 's', position: 1 }),
      409,
      'conflict',
    );
    await refused(call('composition.placement.remove', { store: other.store_id, extension_id: 'ext.theirs', component: 'banner' }), 409, 'conflict');
    await refused(t.read('/internal/composition', { store: other.store_id }), 404, 'not_found');
    // Its manifests are not ours, even on our own store.
    await refused(
      call('composition.placement.set', { store: shop.store_id, extension_id: 'ext.theirs', component: 'banner', slot: 's', position: 1 }),
      409,
      'conflict',
    );
    expect((await composition(shop.store_id)).items.map((i) => i.extension_id)).toEqual(['ext.reviews', 'ext.reviews']);
    expect((await composition(other.store_id, other.token)).items).toEqual([
      { extension_id: 'ext.theirs', component: 'banner', slot: 'home.top', position: 0, source: 'manifest', placement_id: null },
    ]);
    expect(await eventsOf('extension.manifest.registered', other.token)).toEqual([expect.objectContaining({ extension_id: 'ext.theirs' })]);
  });
});

describe('composition.placement.remove (deprecated) and its successor reset', () => {
  it('removes: {removed: true} and the hook reverts to its default, {removed: false} when none (200), event only on change', async () => {
    await manifest();
    const { placement_id } = await ok('composition.placement.set', {
      store: shop.store_id,
      extension_id: 'ext.reviews',
      component: 'stars',
      slot: 'home.main',
      position: 1,
    });
    const removed = await call('composition.placement.remove', { store: handle, extension_id: 'ext.reviews', component: 'stars' });
    expect([removed.status, removed.body]).toEqual([200, { removed: true }]);
    expect((await composition(shop.store_id)).items).toContainEqual({
      extension_id: 'ext.reviews',
      component: 'stars',
      slot: 'product.below_title',
      position: 10,
      source: 'manifest',
      placement_id: null,
    });
    const again = await call('composition.placement.remove', { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars' });
    expect([again.status, again.body]).toEqual([200, { removed: false }]);
    expect(await ok('composition.placement.remove', { store: shop.store_id, extension_id: 'ext.none', component: 'x' })).toEqual({ removed: false });
    const updates = await eventsOf('composition.updated');
    expect(updates).toEqual([
      expect.objectContaining({ change: 'placed', placement_id }),
      { store_id: shop.store_id, extension_id: 'ext.reviews', component: 'stars', change: 'removed', placement_id, slot: 'product.below_title', position: 10 },
    ]);
    await refused(call('composition.placement.remove', { store: shop.store_id, extension_id: 'ext.reviews' }), 400, 'validation_failed');
    await refused(call('composition.placement.remove', { store: '', extension_id: 'ext.reviews', component: 'stars' }), 400, 'validation_failed');
    await refused(call('composition.placement.remove', { store: 'no-such-store', extension_id: 'ext.reviews', component: 'stars' }), 409, 'conflict');
    await refused(
      call('composition.placement.remove', { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars' }, await keyWith('reader', 'content.read')),
      403,
      'forbidden',
    );
  });

  it('reset does the same and says where the hook sits now', async () => {
    await manifest();
    await ok('composition.placement.set', { store: shop.store_id, extension_id: 'ext.reviews', component: 'list', slot: 'home.main', position: 1 });
    expect(await ok('composition.placement.reset', { store: shop.store_id, extension_id: 'ext.reviews', component: 'list' })).toEqual({
      removed: true,
      slot: 'product.footer',
      position: 0,
    });
    expect(await ok('composition.placement.reset', { store: shop.store_id, extension_id: 'ext.reviews', component: 'list' })).toEqual({
      removed: false,
      slot: 'product.footer',
      position: 0,
    });
    expect(await ok('composition.placement.reset', { store: shop.store_id, extension_id: 'ext.reviews', component: 'gone' })).toEqual({
      removed: false,
      slot: null,
      position: null,
    });
    expect((await eventsOf('composition.updated')).map((e) => e.change)).toEqual(['placed', 'removed']);
  });

  it('is shown deprecated on every surface: REST headers, OpenAPI, GraphQL, MCP, CLI', async () => {
    // REST: on success and on refusal alike; not on its successor.
    const rest = await call('composition.placement.remove', { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars' });
    expect(rest.headers.get('deprecation')).toBe('true');
    expect(rest.headers.get('link')).toBe('</v1/commands/composition.placement.reset>; rel="successor-version"');
    const bad = await call('composition.placement.remove', {});
    expect([bad.status, bad.headers.get('deprecation')]).toEqual([400, 'true']);
    const successor = await call('composition.placement.reset', { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars' });
    expect([successor.status, successor.headers.get('deprecation'), successor.headers.get('link')]).toEqual([200, null, null]);

    // OpenAPI.
    const openapi = (await (await fetch(`${t.url}/v1/openapi.json`)).json()) as any;
    const removeDoc = openapi.paths['/v1/commands/composition.placement.remove'].post;
    expect(removeDoc.deprecated).toBe(true);
    expect(removeDoc.description).toContain('use composition.placement.reset instead');
    expect(removeDoc.responses['200'].headers).toMatchObject({ Deprecation: expect.any(Object), Link: expect.any(Object) });
    expect(openapi.paths['/v1/commands/composition.placement.reset'].post.deprecated).toBeUndefined();
    expect(openapi.paths['/v1/commands/extension.connection.set'].post.description).toContain('owner-gated');

    // GraphQL (the composed schema, by introspection).
    const gql = await t.graphql('{ __type(name: "Mutation") { fields(includeDeprecated: true) { name isDeprecated deprecationReason } } }');
    const fields = gql.body.data.__type.fields as Array<{ name: string; isDeprecated: boolean; deprecationReason: string | null }>;
    expect(fields.find((f) => f.name === 'composition_placement_remove')).toEqual({
      name: 'composition_placement_remove',
      isDeprecated: true,
      deprecationReason: 'Deprecated by the interface reference; use composition.placement.reset instead.',
    });
    expect(fields.find((f) => f.name === 'composition_placement_reset')).toMatchObject({ isDeprecated: false });
    const viaGraphql = await t.graphql(
      `mutation { composition_placement_remove(input: { store: "${shop.store_id}", extension_id: "ext.reviews", component: "stars" }) { removed } }`,
      {},
      shop.token,
    );
    expect(viaGraphql.body).toEqual({ data: { composition_placement_remove: { removed: false } } });

    // MCP.
    const client = await mcpClient(t.url, shop.token);
    try {
      const { tools } = await client.listTools();
      const tool = tools.find((x) => x.name === 'composition.placement.remove')!;
      expect(tool.description).toMatch(/^DEPRECATED\. Deprecated by the interface reference; use composition\.placement\.reset instead\./);
      expect(tools.find((x) => x.name === 'composition.placement.reset')!.description).not.toContain('DEPRECATED');
      expect(tools.find((x) => x.name === 'extension.connection.set')!.description).toContain('owner key only');
      const result = await client.callTool({
        name: 'composition.placement.remove',
        arguments: { store: shop.store_id, extension_id: 'ext.reviews', component: 'stars' },
      });
      expect(result.structuredContent).toEqual({ removed: false });
    } finally {
      await client.close();
    }

    // CLI help.
    const root = join(__dirname, '..');
    const help = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(root, 'gateway', 'src', 'cli.ts'), 'composition.placement.remove', '--help'],
      { cwd: root },
    );
    expect(help.stdout.replace(/\s+/g, ' ')).toContain('DEPRECATED. Deprecated by the interface reference; use composition.placement.reset instead.');
    const list = await promisify(execFile)(
      join(root, 'node_modules', '.bin', 'tsx'),
      [join(root, 'gateway', 'src', 'cli.ts'), 'composition.placement.reset', '--help'],
      { cwd: root },
    );
    expect(list.stdout).not.toContain('DEPRECATED');
  }, 60_000);
});
