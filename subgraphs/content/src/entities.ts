import { EntitySchema } from 'typeorm';

// The shape of every table of the content schema, declared once: the row types handlers name come from
// here, and test/schema-drift.test.ts holds the migrated database to these declarations (the
// migrations, not TypeORM, change the schema). Checks and constraints carry their database names.

export interface Page {
  id: string;
  tenant_id: string;
  store_id: string;
  slug: string;
  title: string;
  template_key: string;
  published: boolean;
  meta_title: string | null;
  meta_description: string | null;
  archived_at: Date | null;
  created_by_id: string;
  created_by_name: string;
  updated_by_id: string;
  updated_by_name: string;
  created_at: Date;
  updated_at: Date;
}

export const PageEntity = new EntitySchema<Page>({
  name: 'Page',
  tableName: 'page',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    store_id: { type: 'text' },
    slug: { type: 'text', collation: 'C' },
    title: { type: 'text' },
    template_key: { type: 'text' },
    published: { type: 'boolean', default: false },
    meta_title: { type: 'text', nullable: true },
    meta_description: { type: 'text', nullable: true },
    archived_at: { type: 'timestamptz', nullable: true },
    created_by_id: { type: 'text' },
    created_by_name: { type: 'text' },
    updated_by_id: { type: 'text' },
    updated_by_name: { type: 'text' },
    created_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
  checks: [
    { name: 'page_meta_description_check', expression: '(length(meta_description) >= 1)' },
    { name: 'page_meta_title_check', expression: '(length(meta_title) >= 1)' },
    { name: 'page_slug_check', expression: `((slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text) AND (length(slug) <= 120))` },
    { name: 'page_template_key_check', expression: '(length(template_key) >= 1)' },
    { name: 'page_title_check', expression: '(length(title) >= 1)' },
  ],
  indices: [
    { name: 'page_store_slug', columns: ['store_id', 'slug'], unique: true },
    // USING btree (tenant_id, lower(title), id): an expression TypeORM cannot declare, so the drift test skips it.
    { name: 'page_tenant_title', columns: ['tenant_id', 'id'], synchronize: false },
  ],
});

export interface ExtensionConnection {
  tenant_id: string;
  extension_id: string;
  connection_name: string;
  credential_sealed: string;
  credential_keys: string[];
  created_at: Date;
  updated_at: Date;
}

export const ExtensionConnectionEntity = new EntitySchema<ExtensionConnection>({
  name: 'ExtensionConnection',
  tableName: 'extension_connection',
  columns: {
    tenant_id: { type: 'text', primary: true },
    extension_id: { type: 'text', primary: true },
    connection_name: { type: 'text', primary: true },
    credential_sealed: { type: 'text' },
    credential_keys: { type: 'text', array: true },
    created_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
});

export interface ExtensionManifest {
  tenant_id: string;
  extension_id: string;
  components: unknown[];
  registered_at: Date;
  updated_at: Date;
}

export const ExtensionManifestEntity = new EntitySchema<ExtensionManifest>({
  name: 'ExtensionManifest',
  tableName: 'extension_manifest',
  columns: {
    tenant_id: { type: 'text', primary: true },
    extension_id: { type: 'text', primary: true },
    components: { type: 'jsonb' },
    registered_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
});

export interface CompositionPlacement {
  id: string;
  tenant_id: string;
  store_id: string;
  extension_id: string;
  component: string;
  slot: string;
  position: number;
  created_at: Date;
  updated_at: Date;
}

export const CompositionPlacementEntity = new EntitySchema<CompositionPlacement>({
  name: 'CompositionPlacement',
  tableName: 'composition_placement',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    store_id: { type: 'text' },
    extension_id: { type: 'text' },
    component: { type: 'text' },
    slot: { type: 'text' },
    position: { type: 'integer' },
    created_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
  uniques: [{ name: 'composition_placement_tenant_id_store_id_extension_id_compo_key', columns: ['tenant_id', 'store_id', 'extension_id', 'component'] }],
});

export interface NotificationChannel {
  tenant_id: string;
  key: string;
  label: string;
  notice: string | null;
  extension_id: string | null;
  variant_schema: unknown[];
  created_at: Date;
  updated_at: Date;
}

export const NotificationChannelEntity = new EntitySchema<NotificationChannel>({
  name: 'NotificationChannel',
  tableName: 'notification_channel',
  columns: {
    tenant_id: { type: 'text', primary: true },
    key: { type: 'text', primary: true },
    label: { type: 'text' },
    notice: { type: 'text', nullable: true },
    extension_id: { type: 'text', nullable: true },
    variant_schema: { type: 'jsonb' },
    created_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
});

export interface NotificationTemplate {
  tenant_id: string;
  store_key: string;
  type_key: string;
  channel_key: string;
  locale: string;
  fields: Record<string, unknown>;
  updated_at: Date;
}

export const NotificationTemplateEntity = new EntitySchema<NotificationTemplate>({
  name: 'NotificationTemplate',
  tableName: 'notification_template',
  columns: {
    tenant_id: { type: 'text', primary: true },
    store_key: { type: 'text', primary: true },
    type_key: { type: 'text', primary: true },
    channel_key: { type: 'text', primary: true },
    locale: { type: 'text', primary: true },
    fields: { type: 'jsonb' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
});

export interface NotificationSetting {
  tenant_id: string;
  store_key: string;
  type_key: string;
  channel_key: string;
  enabled: boolean;
  updated_at: Date;
}

export const NotificationSettingEntity = new EntitySchema<NotificationSetting>({
  name: 'NotificationSetting',
  tableName: 'notification_setting',
  columns: {
    tenant_id: { type: 'text', primary: true },
    store_key: { type: 'text', primary: true },
    type_key: { type: 'text', primary: true },
    channel_key: { type: 'text', primary: true },
    enabled: { type: 'boolean' },
    updated_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
});

export interface NotificationOrder {
  tenant_id: string;
  order_id: string;
  store_id: string;
  customer_email: string;
  customer_name: string | null;
  created_at: Date;
}

export const NotificationOrderEntity = new EntitySchema<NotificationOrder>({
  name: 'NotificationOrder',
  tableName: 'notification_order',
  columns: {
    tenant_id: { type: 'text', primary: true },
    order_id: { type: 'text', primary: true },
    store_id: { type: 'text' },
    customer_email: { type: 'text' },
    customer_name: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
  },
});

export interface Notification {
  id: string;
  tenant_id: string;
  store_id: string | null;
  type_key: string;
  channel_key: string;
  locale: string;
  event_id: string | null;
  source_ref: string | null;
  recipient: string;
  recipient_name: string | null;
  sender_name: string;
  reply_to: string;
  subject: string | null;
  body_html: string | null;
  body_text: string | null;
  resent_from: string | null;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  message_id: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  sent_at: Date | null;
}

export const NotificationEntity = new EntitySchema<Notification>({
  name: 'Notification',
  tableName: 'notification',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    store_id: { type: 'text', nullable: true },
    type_key: { type: 'text' },
    channel_key: { type: 'text' },
    locale: { type: 'text' },
    event_id: { type: 'text', nullable: true },
    source_ref: { type: 'text', nullable: true },
    recipient: { type: 'text' },
    recipient_name: { type: 'text', nullable: true },
    sender_name: { type: 'text' },
    reply_to: { type: 'text' },
    subject: { type: 'text', nullable: true },
    body_html: { type: 'text', nullable: true },
    body_text: { type: 'text', nullable: true },
    resent_from: { type: 'text', nullable: true },
    status: { type: 'text', default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    last_error: { type: 'text', nullable: true },
    message_id: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: () => 'clock_timestamp()' },
    last_attempt_at: { type: 'timestamptz', nullable: true },
    sent_at: { type: 'timestamptz', nullable: true },
  },
  checks: [{ name: 'notification_status_check', expression: `(status = ANY (ARRAY['pending'::text, 'sent'::text, 'failed'::text]))` }],
  indices: [
    // USING btree (tenant_id, created_at DESC, id DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'notification_by_tenant', columns: ['tenant_id', 'created_at', 'id'] },
    { name: 'notification_per_event', columns: ['tenant_id', 'event_id', 'type_key', 'channel_key'], unique: true, where: '(event_id IS NOT NULL)' },
  ],
  foreignKeys: [{ name: 'notification_resent_from_fkey', target: 'Notification', columnNames: ['resent_from'], referencedColumnNames: ['id'] }],
});

export const contentEntities = [
  PageEntity,
  ExtensionConnectionEntity,
  ExtensionManifestEntity,
  CompositionPlacementEntity,
  NotificationChannelEntity,
  NotificationTemplateEntity,
  NotificationSettingEntity,
  NotificationOrderEntity,
  NotificationEntity,
];
