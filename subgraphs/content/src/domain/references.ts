import { AppError, forbidden, listSize, maskPersonal, unauthorized, type Actor, type SubgraphContext, sqlOf } from '@backoffice/platform';
import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { effectiveCompositions, type EffectiveHook } from './composition';
import { channelViewOf, templateViewOf, type TemplateRow } from './notification-config-view';
import { previewTemplate, typeSettings } from './notification-editor';
import { notificationOut, notificationView, type NotificationRow } from './notification-view';
import { EMAIL_CHANNEL, MESSAGE_TYPES, type Channel } from './notifications';
import { pageOut, type PageRow } from './pages';

/** A store's `pages` link: at most this many, by title, archived ones left out (the `pages` connection filters by store_id for all). */
export const STORE_PAGES_MAX = 50;
/** A channel's `templates` link: at most this many, by message type, store and locale (the `notification_templates` connection pages all). */
export const CHANNEL_TEMPLATES_MAX = 100;

type PageView = ReturnType<typeof pageOut>;
type ChannelView = ReturnType<typeof channelViewOf>;
type TemplateView = ReturnType<typeof templateViewOf>;
type NotificationView = ReturnType<typeof notificationOut>;

interface Loaders {
  pages: DataLoader<string, PageView | null>;
  /** By store id: its pages. */
  storePages: DataLoader<string, PageView[]>;
  /** By store id: its effective composition. */
  compositions: DataLoader<string, { store_id: string; items: EffectiveHook[] }>;
  channels: DataLoader<string, ChannelView | null>;
  /** By channel key: the templates set for it. */
  channelTemplates: DataLoader<string, TemplateView[]>;
  /** By `templateKey`: one template. */
  templates: DataLoader<string, TemplateView | null>;
  notifications: DataLoader<string, NotificationView | null>;
}

const TEMPLATE_COLUMNS = 'store_key, type_key, channel_key, locale, fields, updated_at';
const templateKey = (t: { channel_key: string; type_key: string; store_key: string; locale: string }) =>
  JSON.stringify([t.channel_key, t.type_key, t.store_key, t.locale]);

/** One set of loaders per request: a list of N stores or channels costs one statement per link, not N. */
const perRequest = new WeakMap<SubgraphContext, Loaders>();

function loadersOf(context: SubgraphContext, dataSource: DataSource, actor: Actor): Loaders {
  let found = perRequest.get(context);
  if (found) return found;
  const sql = sqlOf(dataSource);
  const tenant = actor.tenant_id;
  const grouped = <R, V>(keys: readonly string[], rows: R[], keyOf: (row: R) => string, view: (row: R) => V) => {
    const groups = new Map<string, V[]>(keys.map((key) => [key, []]));
    for (const row of rows) groups.get(keyOf(row))?.push(view(row));
    return keys.map((key) => groups.get(key) ?? []);
  };
  found = {
    pages: new DataLoader(async (ids) => {
      const rows = await sql.rows<PageRow>(`SELECT * FROM content.page WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, tenant]);
      return grouped(ids, rows, (row) => row.id, pageOut).map((views) => views[0] ?? null);
    }),
    storePages: new DataLoader(async (storeIds) => {
      const rows = await sql.rows<PageRow>(
        `SELECT p.* FROM unnest($1::text[]) AS s(id)
         CROSS JOIN LATERAL (SELECT * FROM content.page WHERE tenant_id = $2 AND store_id = s.id AND archived_at IS NULL
           ORDER BY lower(title), title, id LIMIT $3) p`,
        [storeIds, tenant, STORE_PAGES_MAX],
      );
      return grouped(storeIds, rows, (row) => row.store_id, pageOut);
    }),
    compositions: new DataLoader(async (storeIds) => {
      const byStore = await effectiveCompositions(dataSource, tenant, storeIds);
      return storeIds.map((id) => ({ store_id: id, items: byStore.get(id) ?? [] }));
    }),
    channels: new DataLoader(async (keys) => {
      const rows = await sql.rows<Channel>(
        `SELECT key, label, notice, extension_id, variant_schema FROM content.notification_channel WHERE tenant_id = $1 AND key = ANY($2::text[])`,
        [tenant, keys],
      );
      return grouped(keys, [EMAIL_CHANNEL, ...rows], (row) => row.key, channelViewOf).map((views) => views[0] ?? null);
    }),
    channelTemplates: new DataLoader(async (keys) => {
      const rows = await sql.rows<TemplateRow>(
        `SELECT t.* FROM unnest($1::text[]) AS c(key)
         CROSS JOIN LATERAL (SELECT ${TEMPLATE_COLUMNS} FROM content.notification_template WHERE tenant_id = $2 AND channel_key = c.key
           ORDER BY type_key, store_key, locale LIMIT $3) t`,
        [keys, tenant, CHANNEL_TEMPLATES_MAX],
      );
      return grouped(keys, rows, (row) => row.channel_key, templateViewOf);
    }),
    templates: new DataLoader(async (keys) => {
      const rows = await sql.rows<TemplateRow>(
        `SELECT ${TEMPLATE_COLUMNS} FROM content.notification_template
         WHERE tenant_id = $1 AND jsonb_build_array(channel_key, type_key, store_key, locale) = ANY($2::jsonb[])`,
        [tenant, keys],
      );
      return grouped(keys, rows, templateKey, templateViewOf).map((views) => views[0] ?? null);
    }),
    notifications: new DataLoader(async (ids) => {
      const rows = await sql.rows<NotificationRow>(`SELECT * FROM content.notification WHERE id = ANY($1::text[]) AND tenant_id = $2`, [ids, tenant]);
      const view = (row: NotificationRow) => (actor.scopes.includes('pii.read') ? notificationOut(row) : maskPersonal(notificationView, notificationOut(row)));
      return grouped(ids, rows, (row) => row.id, view).map((views) => views[0] ?? null);
    }),
  };
  perRequest.set(context, found);
  return found;
}

/** The caller, once it holds `scope`; refusals are the field's GraphQL error. */
function callerOf(context: SubgraphContext, scope: string): Actor {
  const actor = context.call?.actor;
  if (!actor) throw unauthorized().toGraphQLError();
  if (!actor.scopes.includes(scope)) throw forbidden(scope).toGraphQLError();
  return actor;
}

/** The caller's loaders, once it holds `scope`. */
function loaders(context: SubgraphContext, dataSource: DataSource, scope: string): Loaders {
  return loadersOf(context, dataSource, callerOf(context, scope));
}

const storeOf = (row: { store_id: string }) => ({ __typename: 'Store', store_id: row.store_id });

/**
 * Content's entities and links: `Page` and `Notification` by key; identity's `Store` extended with
 * its pages and composition; a channel's templates; the entity each command's result names. Only the
 * caller's tenant is searched (another tenant's is null or empty); each needs its list's read scope
 * (pages and composition: content.read; channels, templates, notifications: notifications.read).
 */
export function contentResolvers({ dataSource }: { dataSource: DataSource }) {
  type Kind = 'pages' | 'storePages' | 'compositions' | 'channels' | 'channelTemplates' | 'templates' | 'notifications';
  const load =
    (kind: Kind, scope: string, key: (parent: Record<string, string>) => string, fresh = false) =>
    // Async, so a refusal is the one field's (null, with its error), never the whole list's.
    async (parent: Record<string, string>, _args: unknown, context: SubgraphContext) => {
      const loader = loaders(context, dataSource, scope)[kind] as DataLoader<string, unknown>;
      // A command's result is loaded afresh: an earlier mutation of the same request may have loaded it before its change.
      return fresh ? loader.clear(key(parent)).load(key(parent)) : loader.load(key(parent));
    };
  const reference = (kind: Kind, scope: string, field: string) => {
    const resolve = load(kind, scope, (ref) => ref[field]);
    return (ref: Record<string, string>, context: SubgraphContext) => resolve(ref, undefined, context);
  };
  /** A channel's field read for the editor: notifications.read, the caller's tenant, a refusal as the field's error. */
  const editorRead =
    <A, R>(read: (tenant: string, channel: string, args: A) => Promise<R>) =>
    async (channel: { channel_key: string }, args: A, context: SubgraphContext) => {
      const actor = callerOf(context, 'notifications.read');
      try {
        return await read(actor.tenant_id, channel.channel_key, args);
      } catch (error) {
        throw error instanceof AppError ? error.toGraphQLError() : error;
      }
    };
  const templateOf = (r: Record<string, string>) =>
    templateKey({ channel_key: r.channel_key, type_key: r.type_key, store_key: r.store_id ?? '', locale: r.locale });
  return {
    Store: {
      __resolveReference: (ref: { store_id: string }) => ({ store_id: ref.store_id }),
      pages: load('storePages', 'content.read', (store) => store.store_id),
      composition: load('compositions', 'content.read', (store) => store.store_id),
    },
    Page: { __resolveReference: reference('pages', 'content.read', 'page_id'), store: storeOf },
    PageListed: { store: storeOf },
    Composition: { store: storeOf },
    Notification: { __resolveReference: reference('notifications', 'notifications.read', 'notification_id') },
    NotificationChannel: {
      templates: load('channelTemplates', 'notifications.read', (channel) => channel.channel_key),
      effective_template: editorRead((tenant, channel, args: { type_key: string; locale: string; store_id?: string | null }) =>
        previewTemplate(dataSource.manager, tenant, channel, args),
      ),
      message_types: editorRead((tenant, channel, args: { store_id?: string | null }) =>
        typeSettings(dataSource.manager, tenant, channel, args.store_id ?? null),
      ),
    },
    ContentPageCreateResult: { page: load('pages', 'content.read', (result) => result.page_id, true) },
    NotificationChannelRegisterResult: { notification_channel: load('channels', 'notifications.read', (result) => result.channel_key, true) },
    NotificationChannelSetEnabledResult: { notification_channel: load('channels', 'notifications.read', (result) => result.channel_key, true) },
    NotificationTemplateSetResult: { notification_template: load('templates', 'notifications.read', templateOf, true) },
  };
}

/** The hand-written part of content's schema: identity's `Store` extended, links, and the entity each command's result names. */
export const contentTypeDefs = `
type Store @key(fields: "store_id") {
  store_id: ID!
  "The store's pages by title, archived ones left out, at most ${STORE_PAGES_MAX} (the pages connection filters by store_id for all). Scope: content.read."
  pages: [Page!]! ${listSize(STORE_PAGES_MAX)}
  "The store's effective composition, as read.internal.composition shows it. Scope: content.read."
  composition: Composition
}

extend type Page {
  "The page's store as identity has it now."
  store: Store
}

extend type PageListed {
  "The page's store as identity has it now."
  store: Store
}

extend type Composition {
  "The store as identity has it now."
  store: Store
}

extend type NotificationChannel {
  "The templates the tenant set for the channel, by message type, store and locale, at most ${CHANNEL_TEMPLATES_MAX}. Scope: notifications.read."
  templates: [NotificationTemplate!]! ${listSize(CHANNEL_TEMPLATES_MAX)}
  """
  The template a message of the type would use now (the store's, then the tenant's, then the shipped default; the locale, then its
  language, then en), rendered by the message renderer with example values, never a customer's: what the admin's editor previews.
  Null when none resolves (a registered channel without a template). type_key: a message type; locale: 2 to 35, a language tag;
  store_id: a store's id, null or omitted: the whole tenant. Scope: notifications.read.
  """
  effective_template(type_key: String!, locale: String!, store_id: ID): NotificationTemplatePreview
  "Every message type with whether the channel is on for it: the store's setting (store_id), then the tenant's, then on. Scope: notifications.read."
  message_types(store_id: ID): [NotificationMessageType!]! ${listSize(Object.keys(MESSAGE_TYPES).length)}
}

"A message type as a channel sends it."
type NotificationMessageType {
  type_key: String!
  enabled: Boolean!
  "sent whatever enabled says: admin_user.invited and auth.login_code by email"
  always: Boolean!
}

"A template as a message would use it, and its fields rendered with example values."
type NotificationTemplatePreview {
  type_key: String!
  "the locale the template was found in: the one asked, its language, or en"
  locale: String!
  "where it was found: store, tenant or default (shipped)"
  level: String!
  "field name → the template as written"
  fields: JSON!
  "field name → rendered with example values (html fields HTML-escaped as in a message)"
  rendered: JSON!
}

extend type ContentPageCreateResult {
  "The page created. Scope: content.read."
  page: Page
}

extend type NotificationChannelRegisterResult {
  "The channel as it is now. Scope: notifications.read."
  notification_channel: NotificationChannel
}

extend type NotificationChannelSetEnabledResult {
  "The channel. Scope: notifications.read."
  notification_channel: NotificationChannel
}

extend type NotificationTemplateSetResult {
  "The template as it is now. Scope: notifications.read."
  notification_template: NotificationTemplate
}`;
