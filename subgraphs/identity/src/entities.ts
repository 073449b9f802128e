import { EntitySchema } from 'typeorm';
import type { OperatorState } from './domain/operators';

// The shape of every table of the identity schema, declared once: the row types handlers name come from
// here, and test/schema-drift.test.ts holds the migrated database to these declarations (the
// migrations, not TypeORM, change the schema). Checks and constraints carry their database names.

const now = () => 'now()';

export interface Tenant {
  id: string;
  name: string;
  created_at: Date;
}

export const TenantEntity = new EntitySchema<Tenant>({
  name: 'Tenant',
  tableName: 'tenant',
  columns: {
    id: { type: 'text', primary: true },
    name: { type: 'text' },
    created_at: { type: 'timestamptz', default: now },
  },
});

export interface Store {
  id: string;
  tenant_id: string;
  handle: string;
  name: string;
  host: string | null;
  theme_key: string | null;
  guest_checkout_enabled: boolean;
  masked_checkout_enabled: boolean;
  notification_sender_name: string | null;
  notification_reply_to: string | null;
  created_at: Date;
  updated_at: Date;
}

export const StoreEntity = new EntitySchema<Store>({
  name: 'Store',
  tableName: 'store',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    handle: { type: 'text' },
    name: { type: 'text' },
    host: { type: 'text', nullable: true },
    theme_key: { type: 'text', nullable: true },
    guest_checkout_enabled: { type: 'boolean', default: true },
    masked_checkout_enabled: { type: 'boolean', default: false },
    notification_sender_name: { type: 'text', nullable: true },
    notification_reply_to: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: now },
    updated_at: { type: 'timestamptz', default: now },
  },
  uniques: [
    { name: 'store_handle_key', columns: ['handle'] },
    { name: 'store_host_key', columns: ['host'] },
  ],
  checks: [
    { name: 'store_host_normalized', expression: `((host ~ '^[a-z0-9-]+(\\.[a-z0-9-]+)+$'::text) AND (length(host) <= 200))` },
    { name: 'store_sender_name_length', expression: '(length(notification_sender_name) <= 120)' },
  ],
  indices: [{ name: 'store_tenant', columns: ['tenant_id'] }],
  foreignKeys: [{ name: 'store_tenant_id_fkey', target: 'Tenant', columnNames: ['tenant_id'], referencedColumnNames: ['id'] }],
});

/** An API key: the actor. Its token generations are credentials. */
export interface ApiKey {
  id: string;
  tenant_id: string;
  name: string;
  scopes: string[];
  is_owner: boolean;
  issued_by: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

export const ApiKeyEntity = new EntitySchema<ApiKey>({
  name: 'ApiKey',
  tableName: 'api_key',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    name: { type: 'text' },
    scopes: { type: 'text', array: true },
    is_owner: { type: 'boolean', default: false },
    issued_by: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: now },
    revoked_at: { type: 'timestamptz', nullable: true },
  },
  indices: [{ name: 'api_key_tenant', columns: ['tenant_id'] }],
});

/** One token generation of a key. Only the SHA-256 of its secret is kept. */
export interface Credential {
  id: string;
  tenant_id: string;
  api_key_id: string;
  secret_hash: Buffer;
  created_at: Date;
  expires_at: Date | null;
}

export const CredentialEntity = new EntitySchema<Credential>({
  name: 'Credential',
  tableName: 'credential',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    api_key_id: { type: 'text' },
    secret_hash: { type: 'bytea' },
    created_at: { type: 'timestamptz', default: now },
    expires_at: { type: 'timestamptz', nullable: true },
  },
  indices: [{ name: 'credential_key', columns: ['api_key_id'] }],
  foreignKeys: [{ name: 'credential_api_key_id_fkey', target: 'ApiKey', columnNames: ['api_key_id'], referencedColumnNames: ['id'] }],
});

export interface WebhookSubscription {
  id: string;
  tenant_id: string;
  url: string;
  event_types: string[];
  description: string | null;
  enabled: boolean;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_until: Date | null;
  failing_since: Date | null;
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
  personal_data: boolean;
}

export const WebhookSubscriptionEntity = new EntitySchema<WebhookSubscription>({
  name: 'WebhookSubscription',
  tableName: 'webhook_subscription',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    url: { type: 'text' },
    event_types: { type: 'text', array: true },
    description: { type: 'text', nullable: true },
    enabled: { type: 'boolean', default: true },
    secret_sealed: { type: 'text' },
    previous_secret_sealed: { type: 'text', nullable: true },
    previous_secret_until: { type: 'timestamptz', nullable: true },
    failing_since: { type: 'timestamptz', nullable: true },
    disabled_reason: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: now },
    updated_at: { type: 'timestamptz', default: now },
    personal_data: { type: 'boolean', default: false },
  },
  indices: [{ name: 'webhook_subscription_tenant', columns: ['tenant_id', 'created_at'] }],
});

export interface WebhookDelivery {
  id: string;
  tenant_id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  envelope: Record<string, unknown>;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  last_attempt_at: Date | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

export const WebhookDeliveryEntity = new EntitySchema<WebhookDelivery>({
  name: 'WebhookDelivery',
  tableName: 'webhook_delivery',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    subscription_id: { type: 'text' },
    event_id: { type: 'text' },
    event_type: { type: 'text' },
    envelope: { type: 'jsonb' },
    status: { type: 'text', default: 'pending' },
    attempts: { type: 'integer', default: 0 },
    last_attempt_at: { type: 'timestamptz', nullable: true },
    last_response_status: { type: 'integer', nullable: true },
    last_error: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: now },
    delivered_at: { type: 'timestamptz', nullable: true },
  },
  uniques: [{ name: 'webhook_delivery_subscription_id_event_id_key', columns: ['subscription_id', 'event_id'] }],
  checks: [{ name: 'webhook_delivery_status_check', expression: `(status = ANY (ARRAY['pending'::text, 'delivered'::text, 'failed'::text]))` }],
  indices: [
    // USING btree (tenant_id, created_at DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'webhook_delivery_tenant', columns: ['tenant_id', 'created_at'] },
  ],
  foreignKeys: [
    {
      name: 'webhook_delivery_subscription_id_fkey',
      target: 'WebhookSubscription',
      columnNames: ['subscription_id'],
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    },
  ],
});

export interface AdminUserStatus {
  status: string;
  can_log_in: boolean;
  description: string;
}

export const AdminUserStatusEntity = new EntitySchema<AdminUserStatus>({
  name: 'AdminUserStatus',
  tableName: 'admin_user_status',
  columns: {
    status: { type: 'text', primary: true },
    can_log_in: { type: 'boolean' },
    description: { type: 'text' },
  },
});

export interface AdminUser {
  id: string;
  tenant_id: string;
  email: string;
  name: string;
  role: 'owner' | 'admin' | 'staff';
  locale: string;
  /** One of identity.admin_user_status: invited, active or deactivated. */
  status: OperatorState;
  invited_by: string | null;
  created_at: Date;
  updated_at: Date;
  activated_at: Date | null;
  deactivated_at: Date | null;
  failed_logins: number;
  last_failed_login_at: Date | null;
  login_locked_until: Date | null;
}

export const AdminUserEntity = new EntitySchema<AdminUser>({
  name: 'AdminUser',
  tableName: 'admin_user',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    email: { type: 'text' },
    name: { type: 'text' },
    role: { type: 'text' },
    locale: { type: 'text' },
    status: { type: 'text' },
    invited_by: { type: 'text', nullable: true },
    created_at: { type: 'timestamptz', default: now },
    updated_at: { type: 'timestamptz', default: now },
    activated_at: { type: 'timestamptz', nullable: true },
    deactivated_at: { type: 'timestamptz', nullable: true },
    failed_logins: { type: 'integer', default: 0 },
    last_failed_login_at: { type: 'timestamptz', nullable: true },
    login_locked_until: { type: 'timestamptz', nullable: true },
  },
  checks: [
    { name: 'admin_user_email_check', expression: '(length(email) <= 320)' },
    { name: 'admin_user_locale_check', expression: '((length(locale) >= 2) AND (length(locale) <= 10))' },
    { name: 'admin_user_name_check', expression: '((length(name) >= 1) AND (length(name) <= 120))' },
    { name: 'admin_user_role_check', expression: `(role = ANY (ARRAY['owner'::text, 'admin'::text, 'staff'::text]))` },
  ],
  indices: [
    // USING btree (tenant_id, lower(email)) WHERE (status <> 'deactivated'::text): an expression TypeORM cannot declare, so the drift test skips it.
    { name: 'admin_user_email_live', columns: ['tenant_id'], unique: true, where: `(status <> 'deactivated'::text)`, synchronize: false },
    { name: 'admin_user_tenant', columns: ['tenant_id', 'created_at', 'id'] },
  ],
  foreignKeys: [{ name: 'admin_user_status_fkey', target: 'AdminUserStatus', columnNames: ['status'], referencedColumnNames: ['status'] }],
});

export interface LoginCode {
  id: string;
  tenant_id: string;
  admin_user_id: string;
  code_hash: Buffer;
  sealed_code: string | null;
  attempts: number;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export const LoginCodeEntity = new EntitySchema<LoginCode>({
  name: 'LoginCode',
  tableName: 'login_code',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    admin_user_id: { type: 'text' },
    code_hash: { type: 'bytea' },
    sealed_code: { type: 'text', nullable: true },
    attempts: { type: 'integer', default: 0 },
    created_at: { type: 'timestamptz', default: now },
    expires_at: { type: 'timestamptz' },
    used_at: { type: 'timestamptz', nullable: true },
  },
  indices: [
    { name: 'login_code_expiry', columns: ['expires_at'] },
    // USING btree (admin_user_id, created_at DESC): TypeORM declares no direction or operator class; the columns are checked.
    { name: 'login_code_operator', columns: ['admin_user_id', 'created_at'] },
  ],
  foreignKeys: [{ name: 'login_code_admin_user_id_fkey', target: 'AdminUser', columnNames: ['admin_user_id'], referencedColumnNames: ['id'] }],
});

export interface OidcLogin {
  state_hash: Buffer;
  tenant_id: string;
  store_id: string;
  nonce: string;
  code_verifier: string;
  redirect_uri: string;
  binding_hash: Buffer;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export const OidcLoginEntity = new EntitySchema<OidcLogin>({
  name: 'OidcLogin',
  tableName: 'oidc_login',
  columns: {
    state_hash: { type: 'bytea', primary: true },
    tenant_id: { type: 'text' },
    store_id: { type: 'text' },
    nonce: { type: 'text' },
    code_verifier: { type: 'text' },
    redirect_uri: { type: 'text' },
    binding_hash: { type: 'bytea' },
    created_at: { type: 'timestamptz', default: now },
    expires_at: { type: 'timestamptz' },
    used_at: { type: 'timestamptz', nullable: true },
  },
  indices: [{ name: 'oidc_login_expiry', columns: ['expires_at'] }],
});

export interface OperatorSession {
  id: string;
  tenant_id: string;
  admin_user_id: string;
  secret_hash: Buffer;
  method: 'login_code' | 'oidc';
  created_at: Date;
  expires_at: Date;
  revoked_at: Date | null;
}

export const OperatorSessionEntity = new EntitySchema<OperatorSession>({
  name: 'OperatorSession',
  tableName: 'operator_session',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    admin_user_id: { type: 'text' },
    secret_hash: { type: 'bytea' },
    method: { type: 'text' },
    created_at: { type: 'timestamptz', default: now },
    expires_at: { type: 'timestamptz' },
    revoked_at: { type: 'timestamptz', nullable: true },
  },
  checks: [{ name: 'operator_session_method_check', expression: `(method = ANY (ARRAY['login_code'::text, 'oidc'::text]))` }],
  indices: [
    // USING btree (COALESCE(revoked_at, expires_at)): an expression TypeORM cannot declare, so the drift test skips it.
    { name: 'operator_session_end', columns: [], synchronize: false },
    { name: 'operator_session_operator', columns: ['admin_user_id'], where: '(revoked_at IS NULL)' },
  ],
  foreignKeys: [{ name: 'operator_session_admin_user_id_fkey', target: 'AdminUser', columnNames: ['admin_user_id'], referencedColumnNames: ['id'] }],
});

export const identityEntities = [
  TenantEntity,
  StoreEntity,
  ApiKeyEntity,
  CredentialEntity,
  WebhookSubscriptionEntity,
  WebhookDeliveryEntity,
  AdminUserStatusEntity,
  AdminUserEntity,
  LoginCodeEntity,
  OidcLoginEntity,
  OperatorSessionEntity,
];
