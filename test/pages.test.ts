import type { CreatedTenant } from '@backoffice/identity';
import { newId } from '@backoffice/platform';
import { startTestSystem, type TestSystem } from './helpers';

/**
 * Institutional pages over real HTTP on real PostgreSQL: content.page.create (reference) and its
 * extensions update / archive / unarchive, read.internal.pages with every parameter, the public
 * read of one page for a storefront, events, isolation between tenants and masking.
 */
let t: TestSystem;
let shop: CreatedTenant;
beforeAll(async () => {
  t = await startTestSystem();
});
afterAll(() => t.stop());
beforeEach(async () => {
  shop = await t.newTenant();
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
  return (res.body as { items: any[] }).items;
};
const keyWith = async (name: string, ...scopes: string[]) => (await ok('iam.api_key.create', { name, scopes })).token as string;
const page = (extra: Record<string, unknown> = {}) =>
  ok('content.page.create', {
    store_id: shop.store_id,
    slug: `p-${newId('x').slice(-8).toLowerCase()}`,
    title: 'Page',
    template_key: 'page.default',
    ...extra,
  });
const list = (query: Record<string, string> = {}, token = shop.token) => t.read('/internal/pages', query, token);
const listed = async (query: Record<string, string> = {}, token = shop.token) => {
  const res = await list(query, token);
  if (res.status !== 200) throw new Error(`read.internal.pages: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { items: any[]; page: number; limit: number; total: number };
};
const slugs = async (query: Record<string, string> = {}) => (await listed({ limit: '100', ...query })).items.map((i) => i.slug);
const publicPage = (store: string, slug: string) => t.read('/pages', { store, slug }, null);
/** A second store of the shop's tenant (stores are identity's; its store command belongs to another part of the issue). */
const secondStore = async (tenant = shop) => {
  const id = newId('sto');
  await t.sql(`INSERT INTO identity.store (id, tenant_id, handle, name) VALUES ($1, $2, $3, 'Second')`, [
    id,
    tenant.tenant_id,
    `second-${id.slice(-10).toLowerCase()}`,
  ]);
  return id;
};

describe('content.page.create', () => {
  it('registers a page as metadata and answers only page_id; emits content.page.created', async () => {
    const res = await ok('content.page.create', {
      store_id: shop.store_id,
      slug: 'about-us',
      title: 'About us',
      template_key: 'page.about',
      meta_title: 'About',
      meta_description: null,
    });
    expect(Object.keys(res)).toEqual(['page_id']);
    expect(res.page_id).toMatch(/^pag_/);
    const { items } = await listed();
    expect(items).toEqual([
      {
        page_id: res.page_id,
        store_id: shop.store_id,
        slug: 'about-us',
        title: 'About us',
        template_key: 'page.about',
        published: false,
        meta_title: 'About',
        meta_description: null,
        archived: false,
        archived_at: null,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        created_by: { actor_id: shop.api_key_id, name: 'owner' },
        updated_by: { actor_id: shop.api_key_id, name: 'owner' },
      },
    ]);
    const events = await eventsOf('content.page.created');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'content.page.created',
      actor_id: shop.api_key_id,
      payload: { page_id: res.page_id, store_id: shop.store_id, slug: 'about-us', title: 'About us', template_key: 'page.about', published: false },
    });
  });

  it('takes slugs of lowercase letters and digits in groups joined by single hyphens, 1 to 120 characters', async () => {
    for (const slug of ['a', '7', 'faq', 'about-us', 'faq-2024', 'a-b-c-1', 'x'.repeat(120)]) await page({ slug });
    for (const slug of ['', 'About', 'a--b', '-a', 'a-', 'a_b', 'a b', 'a.b', 'página', 'a/b', 'x'.repeat(121), '-', ' a']) {
      await refused(call('content.page.create', { store_id: shop.store_id, slug, title: 'T', template_key: 'k' }), 400, 'validation_failed');
    }
    await refused(call('content.page.create', { store_id: shop.store_id, slug: 7, title: 'T', template_key: 'k' }), 400, 'validation_failed');
  });

  it('checks every field as the reference says', async () => {
    const base = { store_id: shop.store_id, slug: 'fields', title: 'T', template_key: 'k' };
    for (const bad of [
      { ...base, title: '' },
      { ...base, title: undefined },
      { ...base, template_key: '' },
      { ...base, template_key: undefined },
      { ...base, store_id: '' },
      { ...base, store_id: undefined },
      { ...base, slug: undefined },
      { ...base, meta_title: '' },
      { ...base, meta_description: '' },
      { ...base, published: 'yes' },
      { ...base, title: 'x'.repeat(201) },
      { ...base, extra: 1 },
    ]) {
      await refused(call('content.page.create', bad), 400, 'validation_failed');
    }
    const { page_id } = await ok('content.page.create', { ...base, published: true, meta_title: null, meta_description: 'Described' });
    const [row] = await t.sql(`SELECT published, meta_title, meta_description FROM content.page WHERE id = $1`, [page_id]);
    expect(row).toEqual({ published: true, meta_title: null, meta_description: 'Described' });
  });

  it('refuses a store that is not the caller tenant’s as conflict, and takes any store of the tenant, by id or handle', async () => {
    const other = await t.newTenant();
    await refused(call('content.page.create', { store_id: other.store_id, slug: 'x', title: 'T', template_key: 'k' }), 409, 'conflict');
    await refused(call('content.page.create', { store_id: 'sto_nope', slug: 'x', title: 'T', template_key: 'k' }), 409, 'conflict');
    // A store is named by its id or its handle, as everywhere: the page keeps the id.
    const [{ handle }] = await t.sql(`SELECT handle FROM identity.store WHERE id = $1`, [shop.store_id]);
    const byHandle = await ok('content.page.create', { store_id: handle, slug: 'by-handle', title: 'T', template_key: 'k' });
    expect(await t.sql(`SELECT store_id FROM content.page WHERE id = $1`, [byHandle.page_id])).toEqual([{ store_id: shop.store_id }]);
    const second = await secondStore();
    await ok('content.page.create', { store_id: second, slug: 'x', title: 'T', template_key: 'k' });
    expect(await t.sql(`SELECT count(*)::int AS n FROM content.page WHERE tenant_id = $1`, [other.tenant_id])).toEqual([{ n: 0 }]);
  });

  it('keeps a slug unique per store: a duplicate is conflict; another store (or tenant) may use it', async () => {
    await page({ slug: 'contact' });
    const body = await refused(call('content.page.create', { store_id: shop.store_id, slug: 'contact', title: 'Again', template_key: 'k' }), 409, 'conflict');
    expect(body.error.message).toContain('contact');
    // An archived page keeps its slug.
    const { page_id } = await page({ slug: 'kept' });
    await ok('content.page.archive', { page_id });
    await refused(call('content.page.create', { store_id: shop.store_id, slug: 'kept', title: 'T', template_key: 'k' }), 409, 'conflict');
    await ok('content.page.create', { store_id: await secondStore(), slug: 'contact', title: 'T', template_key: 'k' });
    const other = await t.newTenant();
    await ok('content.page.create', { store_id: other.store_id, slug: 'contact', title: 'T', template_key: 'k' }, other.token);
    expect((await eventsOf('content.page.created')).length).toBe(3);
    expect((await eventsOf('content.page.created', other.token)).length).toBe(1);
  });

  it('lets exactly one of 10 concurrent creates of one slug win; the others are conflict', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => call('content.page.create', { store_id: shop.store_id, slug: 'race', title: `Racer ${i}`, template_key: 'k' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const r of results.filter((r) => r.status === 409)) expect(r.body.error.kind).toBe('conflict');
    expect(await t.sql(`SELECT count(*)::int AS n FROM content.page WHERE store_id = $1 AND slug = 'race'`, [shop.store_id])).toEqual([{ n: 1 }]);
    expect(await eventsOf('content.page.created')).toHaveLength(1);
  });

  it('needs a valid key with content.write', async () => {
    const input = { store_id: shop.store_id, slug: 'x', title: 'T', template_key: 'k' };
    await refused(call('content.page.create', input, null), 401, 'unauthorized');
    await refused(call('content.page.create', input, 'bok_nope'), 401, 'unauthorized');
    const reader = await keyWith('reader', 'content.read');
    const body = await refused(call('content.page.create', input, reader), 403, 'forbidden');
    expect(body.error.message).toContain('content.write');
    for (const name of ['content.page.update', 'content.page.archive', 'content.page.unarchive']) {
      await refused(call(name, { page_id: 'pag_x' }, reader), 403, 'forbidden');
    }
    const writer = await keyWith('writer', 'content.write');
    await ok('content.page.create', input, writer);
  });
});

describe('content.page.update', () => {
  it('changes only what is given, emits content.page.updated with what changed, nothing on no change', async () => {
    const { page_id } = await page({ slug: 'terms', title: 'Terms', meta_title: 'T' });
    const editor = await keyWith('Editor Ana', 'content.write');
    const after = await ok(
      'content.page.update',
      { page_id, title: 'Terms of use', published: true, meta_title: null, meta_description: 'What you agree to' },
      editor,
    );
    expect(after).toEqual({
      page_id,
      store_id: shop.store_id,
      slug: 'terms',
      title: 'Terms of use',
      template_key: 'page.default',
      published: true,
      meta_title: null,
      meta_description: 'What you agree to',
      archived: false,
      archived_at: null,
      updated_at: expect.any(String),
    });
    let events = await eventsOf('content.page.updated');
    expect(events).toHaveLength(1);
    expect(events[0].payload).toEqual({
      page_id,
      store_id: shop.store_id,
      slug: 'terms',
      published: true,
      changed: ['title', 'published', 'meta_title', 'meta_description'],
    });
    const [item] = (await listed()).items;
    expect(item.updated_by.name).toBe('Editor Ana');
    expect(item.created_by.name).toBe('owner');

    // The same values again, or nothing at all: success, no event, nothing touched.
    expect(await ok('content.page.update', { page_id, title: 'Terms of use', published: true, meta_title: null })).toEqual(after);
    expect(await ok('content.page.update', { page_id })).toEqual(after);
    expect(await eventsOf('content.page.updated')).toHaveLength(1);

    await ok('content.page.update', { page_id, published: false, slug: 'terms-2', template_key: 'page.legal' });
    events = await eventsOf('content.page.updated');
    expect(events).toHaveLength(2);
    expect(events[0].payload).toEqual({ page_id, store_id: shop.store_id, slug: 'terms-2', published: false, changed: ['slug', 'template_key', 'published'] });
  });

  it('keeps slugs unique in the store on update, and checks fields as create does', async () => {
    const a = await page({ slug: 'alpha' });
    await page({ slug: 'beta' });
    await refused(call('content.page.update', { page_id: a.page_id, slug: 'beta' }), 409, 'conflict');
    await ok('content.page.update', { page_id: a.page_id, slug: 'alpha' });
    for (const bad of [
      { slug: 'Alpha' },
      { slug: 'a--b' },
      { slug: '' },
      { title: '' },
      { template_key: '' },
      { meta_title: '' },
      { published: 1 },
      { store_id: shop.store_id },
    ]) {
      await refused(call('content.page.update', { page_id: a.page_id, ...bad }), 400, 'validation_failed');
    }
    await refused(call('content.page.update', { slug: 'x' }), 400, 'validation_failed');
    expect(await eventsOf('content.page.updated')).toHaveLength(0);
  });

  it('lets one of several concurrent renames to one slug win', async () => {
    const pages = await Promise.all(Array.from({ length: 6 }, (_, i) => page({ slug: `src-${i}` })));
    const results = await Promise.all(pages.map((p) => call('content.page.update', { page_id: p.page_id, slug: 'target' })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(await t.sql(`SELECT count(*)::int AS n FROM content.page WHERE store_id = $1 AND slug = 'target'`, [shop.store_id])).toEqual([{ n: 1 }]);
  });

  it('refuses a page of another tenant or none as conflict, and an archived page until it is unarchived', async () => {
    const other = await t.newTenant();
    const theirs = await ok('content.page.create', { store_id: other.store_id, slug: 'theirs', title: 'Theirs', template_key: 'k' }, other.token);
    for (const name of ['content.page.update', 'content.page.archive', 'content.page.unarchive']) {
      await refused(call(name, { page_id: theirs.page_id }), 409, 'conflict');
      await refused(call(name, { page_id: 'pag_nope' }), 409, 'conflict');
    }
    expect(await t.sql(`SELECT title, archived_at FROM content.page WHERE id = $1`, [theirs.page_id])).toEqual([{ title: 'Theirs', archived_at: null }]);

    const { page_id } = await page({ slug: 'frozen' });
    await ok('content.page.archive', { page_id });
    const body = await refused(call('content.page.update', { page_id, title: 'New' }), 409, 'conflict');
    expect(body.error.message).toContain('archived');
    await ok('content.page.unarchive', { page_id });
    expect((await ok('content.page.update', { page_id, title: 'New' })).title).toBe('New');
  });
});

describe('content.page.archive and content.page.unarchive', () => {
  it('move between active and archived, emit only on change, repeating succeeds without an event', async () => {
    const { page_id } = await page({ slug: 'seasonal', published: true });
    const archived = await ok('content.page.archive', { page_id });
    expect(archived).toMatchObject({ page_id, archived: true, archived_at: expect.any(String), published: true });
    expect(await ok('content.page.archive', { page_id })).toEqual(archived);
    let events = await eventsOf('content.page.archived');
    expect(events.map((e) => e.payload)).toEqual([{ page_id, store_id: shop.store_id, slug: 'seasonal' }]);

    const back = await ok('content.page.unarchive', { page_id });
    expect(back).toMatchObject({ page_id, archived: false, archived_at: null, published: true });
    expect(await ok('content.page.unarchive', { page_id })).toEqual(back);
    events = await eventsOf('content.page.unarchived');
    expect(events.map((e) => e.payload)).toEqual([{ page_id, store_id: shop.store_id, slug: 'seasonal', published: true }]);

    // Unarchiving a page never archived: success, no event.
    const fresh = await page();
    await ok('content.page.unarchive', { page_id: fresh.page_id });
    expect(await eventsOf('content.page.unarchived')).toHaveLength(1);
    expect(await eventsOf('content.page.archived')).toHaveLength(1);
    await refused(call('content.page.archive', {}), 400, 'validation_failed');
  });
});

describe('read.internal.pages', () => {
  /** Four pages: published or not, archived or not. */
  const four = async () => {
    const live = await page({ slug: 'live', title: 'Live', published: true });
    const draft = await page({ slug: 'draft', title: 'Draft' });
    const gone = await page({ slug: 'gone', title: 'Gone', published: true });
    const old = await page({ slug: 'old-draft', title: 'Old draft' });
    await ok('content.page.archive', { page_id: gone.page_id });
    await ok('content.page.archive', { page_id: old.page_id });
    return { live, draft, gone, old };
  };

  it('shows drafts and published, archived excluded by default; archived and include_archived in every form', async () => {
    await four();
    expect(await slugs()).toEqual(['draft', 'live']);
    expect(await slugs({ archived: 'exclude' })).toEqual(['draft', 'live']);
    expect(await slugs({ archived: 'include' })).toEqual(['draft', 'gone', 'live', 'old-draft']);
    expect(await slugs({ archived: 'only' })).toEqual(['gone', 'old-draft']);
    for (const yes of ['1', 'true']) expect(await slugs({ include_archived: yes })).toEqual(['draft', 'gone', 'live', 'old-draft']);
    for (const no of ['0', 'false']) expect(await slugs({ include_archived: no })).toEqual(['draft', 'live']);
    // Together they must agree; then archived rules.
    expect(await slugs({ include_archived: 'true', archived: 'include' })).toEqual(['draft', 'gone', 'live', 'old-draft']);
    expect(await slugs({ include_archived: '1', archived: 'only' })).toEqual(['gone', 'old-draft']);
    expect(await slugs({ include_archived: 'false', archived: 'exclude' })).toEqual(['draft', 'live']);
    for (const [include_archived, archived] of [
      ['true', 'exclude'],
      ['1', 'exclude'],
      ['false', 'include'],
      ['0', 'only'],
    ]) {
      const body = await refused(list({ include_archived, archived }), 400, 'validation_failed');
      expect(body.error.message).toContain('contradicts');
    }
    for (const bad of <Record<string, string>[]>[
      { archived: 'all' },
      { archived: '' },
      { include_archived: 'yes' },
      { include_archived: '2' },
      { include_archived: '' },
      { include_archived: 'TRUE' },
    ]) {
      await refused(list(bad), 400, 'validation_failed');
    }
  });

  it('filters by published in every form, combined with archived', async () => {
    await four();
    for (const yes of ['1', 'true']) expect(await slugs({ published: yes })).toEqual(['live']);
    for (const no of ['0', 'false']) expect(await slugs({ published: no })).toEqual(['draft']);
    expect(await slugs({ published: 'true', archived: 'include' })).toEqual(['gone', 'live']);
    expect(await slugs({ published: '0', archived: 'only' })).toEqual(['old-draft']);
    expect(await slugs({ published: 'false', include_archived: '1' })).toEqual(['draft', 'old-draft']);
    for (const bad of ['yes', '', 'no', '01']) await refused(list({ published: bad }), 400, 'validation_failed');
  });

  it('searches title and slug with q, case-insensitive, wildcards taken literally', async () => {
    await page({ slug: 'shipping-policy', title: 'How we ship' });
    await page({ slug: 'returns', title: 'Returns: 100% refund' });
    await page({ slug: 'faq', title: 'Questions_and answers' });
    await page({ slug: 'about', title: 'About us' });
    expect(await slugs({ q: 'SHIP' })).toEqual(['shipping-policy']);
    expect(await slugs({ q: 'policy' })).toEqual(['shipping-policy']);
    expect(await slugs({ q: 'us' })).toEqual(['about']);
    expect(await slugs({ q: '%' })).toEqual(['returns']);
    expect(await slugs({ q: '100%' })).toEqual(['returns']);
    expect(await slugs({ q: '_' })).toEqual(['faq']);
    expect(await slugs({ q: 's_a' })).toEqual(['faq']);
    expect(await slugs({ q: 'a%s' })).toEqual([]);
    expect(await slugs({ q: '\\' })).toEqual([]);
    expect(await slugs({ q: 'nothing' })).toEqual([]);
    await refused(list({ q: '' }), 400, 'validation_failed');
    await refused(list({ q: 'x'.repeat(201) }), 400, 'validation_failed');
  });

  it('sorts by title ascending by default, or descending', async () => {
    for (const [slug, title] of [
      ['b', 'banana'],
      ['a', 'Apple'],
      ['c', 'cherry'],
      ['d', 'Date'],
    ]) {
      await page({ slug, title });
    }
    expect(await slugs()).toEqual(['a', 'b', 'c', 'd']);
    expect(await slugs({ sort: 'title_asc' })).toEqual(['a', 'b', 'c', 'd']);
    expect(await slugs({ sort: 'title_desc' })).toEqual(['d', 'c', 'b', 'a']);
    await refused(list({ sort: 'created_at' }), 400, 'validation_failed');
  });

  it('pages with limit (default 24, 1 to 100) and page (from 1), counting the total', async () => {
    for (let i = 0; i < 30; i++) await page({ slug: `p${String(i).padStart(2, '0')}`, title: `Page ${String(i).padStart(2, '0')}` });
    const first = await listed();
    expect([first.items.length, first.page, first.limit, first.total]).toEqual([24, 1, 24, 30]);
    const second = await listed({ page: '2' });
    expect([second.items.length, second.page, second.total]).toEqual([6, 2, 30]);
    expect(second.items[0].slug).toBe('p24');
    const small = await listed({ limit: '7', page: '3' });
    expect(small.items.map((i) => i.slug)).toEqual(['p14', 'p15', 'p16', 'p17', 'p18', 'p19', 'p20']);
    expect((await listed({ limit: '100' })).items).toHaveLength(30);
    expect((await listed({ page: '9' })).items).toEqual([]);
    for (const bad of <Record<string, string>[]>[
      { limit: '0' },
      { limit: '101' },
      { limit: 'x' },
      { page: '0' },
      { page: '-1' },
      { page: '1.5' },
      { unknown: '1' },
    ]) {
      await refused(list(bad), 400, 'validation_failed');
    }
  });

  it('takes the tenant from the caller only: store_id filters, and another tenant’s store returns nothing of theirs', async () => {
    const second = await secondStore();
    await page({ slug: 'home-one' });
    await ok('content.page.create', { store_id: second, slug: 'home-two', title: 'Two', template_key: 'k' });
    const other = await t.newTenant();
    await ok('content.page.create', { store_id: other.store_id, slug: 'secret', title: 'Their page', template_key: 'k' }, other.token);
    expect(await slugs()).toEqual(['home-one', 'home-two']);
    expect(await slugs({ store_id: shop.store_id })).toEqual(['home-one']);
    expect(await slugs({ store_id: second })).toEqual(['home-two']);
    expect(await listed({ store_id: other.store_id })).toEqual({ items: [], page: 1, limit: 24, total: 0 });
    expect(await listed({ store_id: 'sto_unknown' })).toEqual({ items: [], page: 1, limit: 24, total: 0 });
    expect(await slugs({ q: 'secret', archived: 'include' })).toEqual([]);
    expect((await listed({}, other.token)).items.map((i) => i.slug)).toEqual(['secret']);
    // There is no way to name a tenant.
    await refused(list({ tenant_id: other.tenant_id }), 400, 'validation_failed');
    await refused(list({ store_id: '' }), 400, 'validation_failed');
  });

  it('needs a valid key with content.read', async () => {
    await refused(list({}, null as never), 401, 'unauthorized');
    const writer = await keyWith('writer', 'content.write');
    const body = await refused(list({}, writer), 403, 'forbidden');
    expect(body.error.message).toContain('content.read');
  });

  it('masks who created and changed a page without pii.read, the shape unchanged; shows it with pii.read', async () => {
    const author = await keyWith('Maria Souza', 'content.write');
    const { page_id } = await ok('content.page.create', { store_id: shop.store_id, slug: 'story', title: 'Our story', template_key: 'k' }, author);
    const editor = await keyWith('João Lima', 'content.write');
    await ok('content.page.update', { page_id, title: 'Our story so far' }, editor);
    const support = await keyWith('support', 'content.read');
    const clear = await keyWith('auditor', 'content.read', 'pii.read');
    const authorId = (await t.sql(`SELECT created_by_id FROM content.page WHERE id = $1`, [page_id]))[0].created_by_id;

    const seen = await listed({}, clear);
    expect(seen.items[0].created_by).toEqual({ actor_id: authorId, name: 'Maria Souza' });
    expect(seen.items[0].updated_by).toEqual({ actor_id: expect.any(String), name: 'João Lima' });
    const hidden = await listed({}, support);
    expect(hidden.items[0].created_by).toEqual({ actor_id: authorId, name: '***' });
    expect(hidden.items[0].updated_by).toEqual({ actor_id: seen.items[0].updated_by.actor_id, name: '***' });
    const text = JSON.stringify(hidden);
    expect(text).not.toContain('Maria');
    expect(text).not.toContain('João');
    // Only the personal values differ.
    const strip = (body: any) => ({
      ...body,
      items: body.items.map((i: any) => ({ ...i, created_by: i.created_by.actor_id, updated_by: i.updated_by.actor_id })),
    });
    expect(strip(hidden)).toEqual(strip(seen));
    expect(hidden.items[0].title).toBe('Our story so far');

    // GraphQL: the same handler, the same masking; include_archived takes a boolean or a string there too.
    const query = `query($a: JSON) { read_internal_pages(input: { include_archived: $a }) { total items { slug created_by { actor_id name } } } }`;
    const gql = await t.graphql(query, { a: true }, support);
    expect(gql.body.data.read_internal_pages).toEqual({ total: 1, items: [{ slug: 'story', created_by: { actor_id: authorId, name: '***' } }] });
    expect((await t.graphql(query, { a: '0' }, clear)).body.data.read_internal_pages.items[0].created_by.name).toBe('Maria Souza');
    expect((await t.graphql(query, { a: 'maybe' }, clear)).body.errors[0].extensions.code).toBe('validation_failed');

    // A page's store is identity's Store entity: one query across the two subgraphs.
    const across = await t.graphql(`{ read_internal_pages { items { slug store { store_id handle name } } } }`, {}, clear);
    const [{ name, handle }] = await t.sql(`SELECT name, handle FROM identity.store WHERE id = $1`, [shop.store_id]);
    expect(across.body).toEqual({ data: { read_internal_pages: { items: [{ slug: 'story', store: { store_id: shop.store_id, handle, name } }] } } });
  });
});

describe('read.pages (public)', () => {
  it('serves a published, unarchived page by store id or handle, without a credential', async () => {
    const { page_id } = await page({
      slug: 'about',
      title: 'About',
      template_key: 'page.about',
      published: true,
      meta_title: 'About us',
      meta_description: 'Who we are',
    });
    const [{ handle }] = await t.sql(`SELECT handle FROM identity.store WHERE id = $1`, [shop.store_id]);
    const expected = {
      page_id,
      store_id: shop.store_id,
      slug: 'about',
      title: 'About',
      template_key: 'page.about',
      meta_title: 'About us',
      meta_description: 'Who we are',
      published: true,
      updated_at: expect.any(String),
    };
    for (const store of [shop.store_id, handle]) {
      const res = await publicPage(store, 'about');
      expect(res.status).toBe(200);
      expect(res.body).toEqual(expected);
    }
  });

  it('answers 404 not_found for a draft, an archived page, an unknown slug or store, and another store’s page', async () => {
    const { page_id } = await page({ slug: 'draft' });
    const archived = await page({ slug: 'archived', published: true });
    await ok('content.page.archive', { page_id: archived.page_id });
    const second = await secondStore();
    await ok('content.page.create', { store_id: second, slug: 'elsewhere', title: 'T', template_key: 'k', published: true });
    for (const [store, slug] of [
      [shop.store_id, 'draft'],
      [shop.store_id, 'archived'],
      [shop.store_id, 'missing'],
      [shop.store_id, 'Draft'],
      ['no-such-store', 'draft'],
      [shop.store_id, 'elsewhere'],
    ]) {
      await refused(publicPage(store, slug), 404, 'not_found');
    }
    // Publishing, then unarchiving, brings them to the storefront; unpublishing takes one away.
    await ok('content.page.update', { page_id, published: true });
    expect((await publicPage(shop.store_id, 'draft')).status).toBe(200);
    await ok('content.page.unarchive', { page_id: archived.page_id });
    expect((await publicPage(shop.store_id, 'archived')).status).toBe(200);
    await ok('content.page.update', { page_id, published: false });
    await refused(publicPage(shop.store_id, 'draft'), 404, 'not_found');
    expect((await publicPage(second, 'elsewhere')).status).toBe(200);
  });

  it('refuses missing or malformed parameters as validation_failed', async () => {
    await refused(t.read('/pages', { store: shop.store_id }, null), 400, 'validation_failed');
    await refused(t.read('/pages', { slug: 'x' }, null), 400, 'validation_failed');
    await refused(t.read('/pages', { store: '', slug: 'x' }, null), 400, 'validation_failed');
    await refused(t.read('/pages', { store: shop.store_id, slug: 'x'.repeat(201) }, null), 400, 'validation_failed');
  });
});
