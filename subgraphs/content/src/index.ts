import { join } from 'node:path';
import type { SubgraphDefinition } from '@backoffice/platform';
import { contentEvents } from './events';
import { Pages1795800000001 } from './migrations/1795800000001-pages';
import { Extensions1795800000002 } from './migrations/1795800000002-extensions';
import { placementRemove } from './operations/composition.placement.remove';
import { placementReset } from './operations/composition.placement.reset';
import { placementSet } from './operations/composition.placement.set';
import { extensionConnectionRevoke } from './operations/extension.connection.revoke';
import { extensionConnectionSet } from './operations/extension.connection.set';
import { manifestRegister } from './operations/extension.manifest.register';
import { readComposition } from './operations/read.internal.composition';
import { readExtensionConnections } from './operations/read.internal.extensions.connections';
import { pageArchive } from './operations/content.page.archive';
import { pageCreate } from './operations/content.page.create';
import { pageUnarchive } from './operations/content.page.unarchive';
import { pageUpdate } from './operations/content.page.update';
import { readPages } from './operations/read.internal.pages';
import { readPublicPage } from './operations/read.pages';
import { contentPorts, type ContentPorts } from './ports';
import { Notifications1795800000003 } from './migrations/1795800000003-notifications';
import { notificationChannelRegister } from './operations/notification.channel.register';
import { notificationChannelSetEnabled } from './operations/notification.channel.set_enabled';
import { notificationTemplateSet } from './operations/notification.template.set';
import { notificationResend } from './operations/notification.resend';
import { readNotifications } from './operations/read.internal.notifications';
import { readNotification } from './operations/read.internal.notification';
import { notificationDispatch } from './consumers/notifications';
import { notificationSend } from './tasks/notification.send';

/** A page's and a composition's store is identity's entity `Store`: the gateway asks identity for it. */
const typeDefs = `
type Store @key(fields: "store_id", resolvable: false) {
  store_id: String!
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
  ports: contentPorts,
  defaultPort: 4004,
  schemaFile: join(__dirname, '..', 'schema.graphql'),
  operations: [
    pageCreate,
    pageUpdate,
    pageArchive,
    pageUnarchive,
    readPages,
    readPublicPage,
    extensionConnectionSet,
    extensionConnectionRevoke,
    readExtensionConnections,
    manifestRegister,
    placementSet,
    placementRemove,
    placementReset,
    readComposition,
    notificationChannelRegister,
    notificationChannelSetEnabled,
    notificationTemplateSet,
    notificationResend,
    readNotifications,
    readNotification,
  ],
  events: contentEvents,
  entities: [],
  migrations: [Pages1795800000001, Extensions1795800000002, Notifications1795800000003],
  consumers: [notificationDispatch],
  tasks: [notificationSend],
  typeDefs,
  resolvers: () => ({ Page: { store: storeOf }, PageListed: { store: storeOf }, ReadInternalCompositionResult: { store: storeOf } }),
};

export { connectionBroker } from './domain/connections';
export { mailerFromEnv, DEFAULT_MAIL_FROM, type Mailer, type OutgoingMail } from './domain/mailer';
