import { conflict, t, validationFailed, type Actor, sqlOf, defineStateMachine } from '@backoffice/platform';
import { Type } from '@sinclair/typebox';
import type { EntityManager } from 'typeorm';
import type { Page } from '../entities';

/**
 * Institutional pages: a page is metadata (its store, slug, title, the theme template that holds its
 * content, SEO fields, published); its content lives in the theme template named by `template_key`.
 */

/** Lowercase letters and digits in groups joined by single hyphens (`about-us`, `faq-2024`). */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
export const SLUG_MAX = 120;

export const pageFields = {
  slug: t.string({ minLength: 1, maxLength: SLUG_MAX, pattern: SLUG_PATTERN, description: 'unique in its store' }),
  title: t.string({ minLength: 1, maxLength: 200 }),
  template_key: t.string({ minLength: 1, maxLength: 200, description: 'the theme template that holds the page content' }),
  published: t.boolean(),
  meta_title: t.nullable(t.string({ minLength: 1, maxLength: 200 })),
  meta_description: t.nullable(t.string({ minLength: 1, maxLength: 1000 })),
};

/** The fields a command may change, in the order `changed` lists them. */
export const EDITABLE = ['slug', 'title', 'template_key', 'published', 'meta_title', 'meta_description'] as const;
export type Editable = (typeof EDITABLE)[number];

/**
 * A page's states and the moves between them: `active` (listed by default, served when published)
 * and `archived` (hidden from the storefront and from default listings, read-only). Repeating a move
 * succeeds without change. An archived page is unarchived before it is changed.
 */
export const PAGE_MACHINE = defineStateMachine({
  name: 'page',
  transitions: { active: ['archived'], archived: ['active'] },
  repeatable: ['active', 'archived'],
  actions: { update: ['active'] },
});
export type PageState = (typeof PAGE_MACHINE.states)[number];

/** The machine's refusal, with the way out for an archived page. */
export function allowPage(id: string, state: PageState, action: 'update'): void {
  if (!PAGE_MACHINE.allows(action, state)) {
    throw conflict(`page ${id} is ${state}: ${action} is not allowed${state === 'archived' ? ' (unarchive it first)' : ''}`, { reason: 'illegal_transition' });
  }
}

export type PageRow = Page;

export const stateOf = (page: Pick<PageRow, 'archived_at'>): PageState => (page.archived_at ? 'archived' : 'active');

/** The page, locked for the command; another tenant's or an unknown page is a conflict (commands do not answer not_found). */
export async function lockPage(db: EntityManager, actor: Actor, pageId: string): Promise<PageRow> {
  const [page] = await sqlOf(db).rows<PageRow>(`SELECT * FROM content.page WHERE id = $1 AND tenant_id = $2 FOR UPDATE`, [pageId, actor.tenant_id]);
  if (!page) throw conflict(`page ${pageId} does not exist in this tenant`, { reason: 'not_found', field: 'page_id' });
  return page;
}

/** A slug taken by another page of the store (archived pages keep theirs): a conflict. The unique index decides races. */
export async function assertSlugFree(db: EntityManager, storeId: string, slug: string, exceptId: string | null): Promise<void> {
  const [taken] = await sqlOf(db).rows<{ id: string }>(`SELECT id FROM content.page WHERE store_id = $1 AND slug = $2 AND id IS DISTINCT FROM $3`, [
    storeId,
    slug,
    exceptId,
  ]);
  if (taken) throw conflict(`store ${storeId} has a page with slug ${slug} already`, { reason: 'duplicate', field: 'slug' });
}

/** A page as commands answer it, the federation entity `Page`: no personal fields. */
export const pageView = t.entity(
  'Page',
  {
    page_id: t.string(),
    store_id: t.string(),
    slug: t.string(),
    title: t.string(),
    template_key: t.string(),
    published: t.boolean(),
    meta_title: t.nullable(t.string()),
    meta_description: t.nullable(t.string()),
    archived: t.boolean(),
    archived_at: t.nullable(t.timestamp()),
    updated_at: t.timestamp(),
  },
  'page_id',
);

/** A page as a storefront reads it (`read.pages`): the page without its archive state (an archived page is not served). */
const { archived: _archived, archived_at: _archivedAt, ...servedFields } = pageView.properties;
export const servedPageView = t.object(servedFields);

export function servedPageOut(row: PageRow) {
  const { archived: _a, archived_at: _at, ...served } = pageOut(row);
  return served;
}

export function pageOut(row: PageRow) {
  return {
    page_id: row.id,
    store_id: row.store_id,
    slug: row.slug,
    title: row.title,
    template_key: row.template_key,
    published: row.published,
    meta_title: row.meta_title,
    meta_description: row.meta_description,
    archived: row.archived_at !== null,
    archived_at: row.archived_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
  };
}

/**
 * Who created or last changed a page: the API key (the actor) by id and by its chosen name. The name
 * is personal (a key is often named after a person: masked without pii.read); the id is not (it is
 * what the audit trail and events name).
 */
export const actorView = t.object({ actor_id: t.string({ personal: false }), name: t.string() }, { personal: true, 'x-graphql-name': 'PageActor' });

/** A page as the internal read lists it. */
export const pageListItem = t.entity('PageListed', {
  ...pageView.properties,
  created_at: t.timestamp(),
  created_by: actorView,
  updated_by: actorView,
});

export function pageListOut(row: PageRow) {
  return {
    ...pageOut(row),
    created_at: row.created_at.toISOString(),
    created_by: { actor_id: row.created_by_id, name: row.created_by_name },
    updated_by: { actor_id: row.updated_by_id, name: row.updated_by_name },
  };
}

/** `boolean or string` with the string values `0`, `1`, `true`, `false` (query strings and JSON alike). */
export const flag = (description: string) => Type.Union([t.boolean(), t.enum(['0', '1', 'true', 'false'] as const)], { description });
export type Flag = boolean | '0' | '1' | 'true' | 'false';
export const flagValue = (value: Flag | undefined): boolean | undefined =>
  value === undefined ? undefined : value === true || value === 'true' || value === '1';

export const ARCHIVED = ['exclude', 'include', 'only'] as const;
export type Archived = (typeof ARCHIVED)[number];

/**
 * Which archived pages a listing shows. `archived` says it in full; `include_archived` is the older
 * switch (true: `include`, false: `exclude`). Given together they must agree — `include_archived=true`
 * with `archived=include` or `only`, `include_archived=false` with `archived=exclude` — and then
 * `archived` rules; a contradiction (`include_archived=true&archived=exclude`,
 * `include_archived=false&archived=only`…) is validation_failed. Neither: `exclude`.
 */
export function archivedMode(archived: Archived | undefined, includeArchived: Flag | undefined): Archived {
  const include = flagValue(includeArchived);
  if (archived === undefined) return include === undefined ? 'exclude' : include ? 'include' : 'exclude';
  if (include !== undefined && include !== (archived !== 'exclude')) {
    throw validationFailed(`include_archived=${String(includeArchived)} contradicts archived=${archived}`, {
      reason: 'invalid_combination',
      field: 'archived',
    });
  }
  return archived;
}
