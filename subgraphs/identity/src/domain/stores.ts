import type { Static } from '@sinclair/typebox';
import { conflict, maskPersonal, t, validationFailed, type Actor, sqlOf } from '@backoffice/platform';
import type { EntityManager } from 'typeorm';
import type { Store } from '../entities';
import { normalizeHost, HOST_MAX_LENGTH, noStoreMessage } from '@backoffice/contracts';

/** What a storefront uses when a store has no theme_key, or one naming no theme it has. */
export const DEFAULT_THEME_KEY = 'default';
/** A tenant's stores at most (tenant.store.create refuses the next one with `conflict`). */
export const STORES_PER_TENANT = 1000;

export const STORE_NAME_MAX_LENGTH = 120;
export const THEME_KEY_MAX_LENGTH = 100;
export const SENDER_NAME_MAX_LENGTH = 120;
export const REPLY_TO_MAX_LENGTH = 320;
/**
 * Empty (clears it), or an email address as the `email` format of every schema checks it (the
 * ajv-formats rule, with both cases spelled out): what passes here passes the event's and the read's.
 */
export const EMPTY_OR_EMAIL_PATTERN =
  "^$|^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$";

/**
 * A store as reads show it, and the federation entity `Store` (key `store_id`) that other subgraphs
 * reference (an order's `store`). `notification_reply_to` is personal (it may be someone's mailbox):
 * masked to `***@domain` for an actor without `pii.read`.
 */
export const storeView = t.entity(
  'Store',
  {
    store_id: t.string(),
    handle: t.string(),
    name: t.string(),
    host: t.nullable(t.string({ description: 'where the storefront serves the store (normalized); null: off routing' })),
    theme_key: t.nullable(t.string({ description: `null: the storefront uses \`${DEFAULT_THEME_KEY}\` (as for a key naming no theme)` })),
    guest_checkout_enabled: t.boolean(),
    masked_checkout_enabled: t.boolean(),
    notification_sender_name: t.nullable(t.string({ description: "null: the store's name, then the tenant's" })),
    notification_reply_to: t.nullable(t.email({ personal: true })),
    created_at: t.timestamp(),
    updated_at: t.timestamp(),
  },
  'store_id',
);

export type StoreView = Static<typeof storeView>;

/** The view of a row, personal fields masked unless the actor has `pii.read`. */
export function storeViewOf(row: Store, actor: Actor): StoreView {
  const view: StoreView = {
    store_id: row.id,
    handle: row.handle,
    name: row.name,
    host: row.host,
    theme_key: row.theme_key,
    guest_checkout_enabled: row.guest_checkout_enabled,
    masked_checkout_enabled: row.masked_checkout_enabled,
    notification_sender_name: row.notification_sender_name,
    notification_reply_to: row.notification_reply_to,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
  return actor.scopes.includes('pii.read') ? view : maskPersonal(storeView, view);
}

/**
 * The store a command acts on, by its id or its handle (the rule for every store a call names), locked
 * for the rest of the transaction. Another tenant's store is indistinguishable from one that does not
 * exist: both are a conflict with the tenant's state.
 */
export async function lockStore(db: EntityManager, actor: Actor, ref: string): Promise<Store> {
  const [store] = await sqlOf(db).rows<Store>(`SELECT * FROM identity.store WHERE (id = $1 OR handle = $1) AND tenant_id = $2 FOR UPDATE`, [
    ref,
    actor.tenant_id,
  ]);
  if (!store) throw conflict(noStoreMessage(ref), { reason: 'not_found', field: 'id' });
  return store;
}

/** A host as given to tenant.store.update: '' clears it (null); anything else must be a host name. */
export function hostOf(raw: string): string | null {
  if (raw === '') return null;
  const host = normalizeHost(raw);
  if (!host) {
    throw validationFailed(
      `host must be a host name (at most ${HOST_MAX_LENGTH} characters once normalized; two or more dot-separated ` +
        `labels of a-z, 0-9 and inner hyphens, 1 to 63 each; the last holding a letter; an optional :port and trailing ` +
        `dot are dropped), or '' to clear it`,
      { reason: 'pattern', field: 'host' },
    );
  }
  return host;
}

/** Refuses a host another store (of any tenant) has; the unique index settles a race the same way. */
export async function assertHostFree(db: EntityManager, host: string, storeId: string): Promise<void> {
  const [taken] = await sqlOf(db).rows<unknown>(`SELECT 1 FROM identity.store WHERE host = $1 AND id <> $2`, [host, storeId]);
  if (taken) throw conflict(`host ${host} is taken by another store`, { reason: 'duplicate', field: 'host' });
}
