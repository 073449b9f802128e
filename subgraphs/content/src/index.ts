import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { contentEvents } from './events';
import { Pages1795800000001 } from './migrations/1795800000001-pages';
import { Extensions1795800000002 } from './migrations/1795800000002-extensions';
import { compositionPlacementRemove } from './operations/composition.placement.remove';
import { compositionPlacementReset } from './operations/composition.placement.reset';
import { compositionPlacementSet } from './operations/composition.placement.set';
import { extensionConnectionRevoke } from './operations/extension.connection.revoke';
import { extensionConnectionSet } from './operations/extension.connection.set';
import { extensionManifestRegister } from './operations/extension.manifest.register';
import { readInternalComposition } from './operations/read.internal.composition';
import { readInternalExtensionsConnections } from './operations/read.internal.extensions.connections';
import { contentPageArchive } from './operations/content.page.archive';
import { contentPageCreate } from './operations/content.page.create';
import { contentPageUnarchive } from './operations/content.page.unarchive';
import { contentPageUpdate } from './operations/content.page.update';
import { readInternalPages } from './operations/read.internal.pages';
import { readPages } from './operations/read.pages';
import { contentPorts, type ContentPorts } from './ports';
import { Notifications1795800000003 } from './migrations/1795800000003-notifications';
import { notificationChannelRegister } from './operations/notification.channel.register';
import { notificationChannelSetEnabled } from './operations/notification.channel.set_enabled';
import { notificationTemplateSet } from './operations/notification.template.set';
import { notificationResend } from './operations/notification.resend';
import { readInternalNotifications } from './operations/read.internal.notifications';
import { readInternalNotification } from './operations/read.internal.notification';
import { notificationDispatch } from './consumers/notifications';
import { notificationSend } from './tasks/notification.send';
import { contentEntities } from './entities';

/** A page's and a composition's store is identity's entity `Store`: the gateway asks identity for it. */
const typeDefs = `
type Store @key(fields: "store_id", resolvable: false) {
  store_id: ID!
}

extend type Page {
  "The page's store as identity has it now."
  store: Store
}

extend type PageListed {
  "The page's store as identity has it now."
  store: Store
}

extend type ReadInternalCompositionResult {
  "The store as identity has it now."
  store: Store
}`;
const storeOf = (row: { store_id: string }) => ({ __typename: 'Store', store_id: row.store_id });

/** Institutional pages, notifications, extension connections and composition. */
export const content: SubgraphDefinition<ContentPorts> = {
  name: 'content',
  summary: 'Institutional pages, notifications, extension connections and composition.',
  ports: contentPorts,
  defaultPort: 4004,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    contentPageCreate,
    contentPageUpdate,
    contentPageArchive,
    contentPageUnarchive,
    readInternalPages,
    readPages,
    extensionConnectionSet,
    extensionConnectionRevoke,
    readInternalExtensionsConnections,
    extensionManifestRegister,
    compositionPlacementSet,
    compositionPlacementRemove,
    compositionPlacementReset,
    readInternalComposition,
    notificationChannelRegister,
    notificationChannelSetEnabled,
    notificationTemplateSet,
    notificationResend,
    readInternalNotifications,
    readInternalNotification,
  ],
  events: contentEvents,
  entities: contentEntities,
  migrations: [Pages1795800000001, Extensions1795800000002, Notifications1795800000003],
  consumers: [notificationDispatch],
  tasks: [notificationSend],
  typeDefs,
  resolvers: () => ({ Page: { store: storeOf }, PageListed: { store: storeOf }, ReadInternalCompositionResult: { store: storeOf } }),
};

export { connectionBroker } from './domain/connections';
export { Vault, vaultFromEnv } from './domain/vault';
export { mailerFromEnv, DEFAULT_MAIL_FROM, type Mailer, type OutgoingMail } from './domain/mailer';
