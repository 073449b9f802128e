import { EntitySchema } from 'typeorm';

export interface Tenant {
  id: string;
  name: string;
  created_at: Date;
}

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

/** One token generation of a key. Only the SHA-256 of its secret is kept. */
export interface Credential {
  id: string;
  tenant_id: string;
  api_key_id: string;
  secret_hash: Buffer;
  created_at: Date;
  expires_at: Date | null;
}

const createdAt = { type: 'timestamptz', createDate: true } as const;

export const TenantEntity = new EntitySchema<Tenant>({
  name: 'Tenant',
  tableName: 'tenant',
  columns: { id: { type: 'text', primary: true }, name: { type: 'text' }, created_at: createdAt },
});

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
    created_at: createdAt,
    updated_at: { type: 'timestamptz', updateDate: true },
  },
});

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
    created_at: createdAt,
    revoked_at: { type: 'timestamptz', nullable: true },
  },
});

export const CredentialEntity = new EntitySchema<Credential>({
  name: 'Credential',
  tableName: 'credential',
  columns: {
    id: { type: 'text', primary: true },
    tenant_id: { type: 'text' },
    api_key_id: { type: 'text' },
    secret_hash: { type: 'bytea' },
    created_at: createdAt,
    expires_at: { type: 'timestamptz', nullable: true },
  },
});

export const identityEntities = [TenantEntity, StoreEntity, ApiKeyEntity, CredentialEntity];
