import type { IdentityClient } from '@backoffice/contracts';
import { ChannelListener, poolOf, type Actor, type EventDraft, type Sql, sqlOf, type SubgraphHooks, type SubgraphRuntime } from '@backoffice/platform';
import { LRUCache } from 'lru-cache';
import type { DataSource } from 'typeorm';
import { adminUserDeactivated, adminUserUpdated, apiKeyRevoked, apiKeyRotated, authLoggedOut } from '../events';
import { parseToken, secretMatches } from './tokens';
import { parseSessionToken, roleScopes, SESSION_PREFIX } from './operators';

/** Only generations that are alive: the key not revoked, the generation not past its deadline. */
const LIVE_CREDENTIAL = {
  name: 'identity_live_credential',
  text: `SELECT c.secret_hash, c.api_key_id, c.tenant_id, c.expires_at, k.name, k.scopes, k.is_owner
         FROM identity.credential c JOIN identity.api_key k ON k.id = c.api_key_id
         WHERE c.id = $1 AND k.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())`,
};

/** Only live operator sessions: not revoked, not expired, the operator active. */
const LIVE_SESSION = {
  name: 'identity_live_session',
  text: `SELECT s.secret_hash, s.admin_user_id, s.tenant_id, s.expires_at, u.name, u.role
         FROM identity.operator_session s JOIN identity.admin_user u ON u.id = s.admin_user_id
         WHERE s.id = $1 AND s.revoked_at IS NULL AND s.expires_at > now() AND u.status = 'active'`,
};

/** What changes whether an operator's sessions still work, or what they carry (payload `admin_user_id`). */
const OPERATOR_LIFE_EVENTS = new Set<string>([adminUserUpdated.name, adminUserDeactivated.name, authLoggedOut.name]);

/**
 * The channel a command that shortens or ends a key's life notifies (inside its transaction, so the
 * notification goes out at commit), with the key's id: other processes drop what they know of it.
 */
export const CREDENTIALS_CHANNEL = 'identity_credentials';

/** What changes whether a key's tokens still work. */
const KEY_LIFE_EVENTS = new Set<string>([apiKeyRotated.name, apiKeyRevoked.name]);

interface KnownCredential {
  secret_hash: Buffer;
  expires_at: number | null;
  actor: Omit<Actor, 'credential_id'>;
}

export interface AuthenticatorOptions {
  /** Credentials remembered (least recently used go first). */
  max?: number;
  /** How long one is remembered: the bound on staleness should a notification ever be missed. */
  ttlMs?: number;
  log?: (line: string) => void;
}

/**
 * Who a bearer token is. Every request needs this, so live credentials are remembered in process;
 * the secret is still checked against the stored hash on every call, and expiry against the clock.
 *
 * Forgetting is what keeps that safe. A rotation or revocation forgets the key at once in the
 * process that committed it (`committed`), and notifies CREDENTIALS_CHANNEL so other processes
 * forget it within milliseconds. Nothing is remembered while this process is not listening to that
 * channel (not started, or its connection lost), and a lookup that raced a forget is not stored.
 */
export class Authenticator implements SubgraphHooks {
  private readonly known: LRUCache<string, KnownCredential>;
  /** CREDENTIALS_CHANNEL: nothing is remembered while it is not listening. */
  private readonly channel: ChannelListener;
  /** Bumped by every forget: a lookup that started before it must not store what it read. */
  private generation = 0;
  private readonly sql: Sql;

  constructor(
    private readonly dataSource: DataSource,
    options: AuthenticatorOptions = {},
  ) {
    this.sql = sqlOf(dataSource);
    // Bounded in bytes too (about 4 MiB): a key's name and scopes make an entry's size.
    this.known = new LRUCache({
      max: options.max ?? 10_000,
      maxSize: 4 * 1024 * 1024,
      sizeCalculation: (credential, id) => 2 * (id.length + credential.actor.name.length + credential.actor.scopes.join().length) + 256,
      ttl: options.ttlMs ?? 30_000,
    });
    this.channel = new ChannelListener({
      connection: () => poolOf(this.dataSource).options,
      channel: CREDENTIALS_CHANNEL,
      applicationName: 'backoffice-identity-listen',
      onNotify: (apiKeyId) => this.forgetKey(apiKeyId),
      onListening: () => this.forgetAll(),
      onDeaf: () => this.forgetAll(),
      lostLine: (error) => `identity: credential notifications lost (${error.message}); looking every token up until they are back`,
      log: options.log ?? console.error,
    });
  }

  /** The actor behind a bearer token, or null when the token is malformed, unknown, expired or revoked. */
  async authenticate(token: string): Promise<Actor | null> {
    if (token.startsWith(SESSION_PREFIX)) return this.authenticateSession(token);
    const parsed = parseToken(token);
    if (!parsed) {
      secretMatches(token, null);
      return null;
    }
    const remembered = this.listening ? this.known.get(parsed.credential_id) : undefined;
    let credential = remembered ?? (await this.lookUp(parsed.credential_id));
    if (credential && credential.expires_at !== null && credential.expires_at <= Date.now()) {
      this.known.delete(parsed.credential_id);
      credential = null;
    }
    if (!secretMatches(parsed.secret, credential?.secret_hash ?? null) || !credential) return null;
    return { ...credential.actor, credential_id: parsed.credential_id };
  }

  /**
   * An operator session (`bos_…`) as an actor: the operator's id as actor id, their name (the audit
   * trail's actor name) and their role's scopes; remembered like key credentials, and forgotten the
   * same way (the operator's id on CREDENTIALS_CHANNEL) on logout, deactivation or a change.
   */
  private async authenticateSession(token: string): Promise<Actor | null> {
    const parsed = parseSessionToken(token);
    if (!parsed) {
      secretMatches(token, null);
      return null;
    }
    const remembered = this.listening ? this.known.get(parsed.session_id) : undefined;
    let session = remembered ?? (await this.lookUpSession(parsed.session_id));
    if (session && session.expires_at !== null && session.expires_at <= Date.now()) {
      this.known.delete(parsed.session_id);
      session = null;
    }
    if (!secretMatches(parsed.secret, session?.secret_hash ?? null) || !session) return null;
    return { ...session.actor, credential_id: parsed.session_id };
  }

  private async lookUpSession(sessionId: string): Promise<KnownCredential | null> {
    const generation = this.generation;
    const [row] = await this.sql.statement<{ secret_hash: Buffer; admin_user_id: string; tenant_id: string; expires_at: Date; name: string; role: string }>({
      ...LIVE_SESSION,
      values: [sessionId],
    });
    if (!row) return null;
    const session: KnownCredential = {
      secret_hash: row.secret_hash,
      expires_at: row.expires_at.getTime(),
      actor: {
        tenant_id: row.tenant_id,
        api_key_id: row.admin_user_id,
        name: row.name,
        scopes: Object.freeze(roleScopes(row.role)) as string[],
        is_owner: false,
      },
    };
    if (this.listening && generation === this.generation) this.known.set(sessionId, session);
    return session;
  }

  /** Drops every generation of a key. */
  forgetKey(apiKeyId: string): void {
    this.generation++;
    const stale = [...this.known.entries()].filter(([, credential]) => credential.actor.api_key_id === apiKeyId);
    for (const [credentialId] of stale) this.known.delete(credentialId);
  }

  committed(events: readonly EventDraft[]): void {
    for (const event of events) {
      if (KEY_LIFE_EVENTS.has(event.type)) this.forgetKey(String(event.payload.api_key_id));
      if (OPERATOR_LIFE_EVENTS.has(event.type)) this.forgetKey(String(event.payload.admin_user_id));
    }
  }

  async start(): Promise<void> {
    await this.channel.start();
  }

  async stop(): Promise<void> {
    await this.channel.stop();
  }

  private get listening(): boolean {
    return this.channel.listening;
  }

  private async lookUp(credentialId: string): Promise<KnownCredential | null> {
    const generation = this.generation;
    // A named statement on the raw pool: parsed once per connection, this runs on every request.
    const [row] = await this.sql.statement<{
      secret_hash: Buffer;
      api_key_id: string;
      tenant_id: string;
      expires_at: Date | null;
      name: string;
      scopes: string[];
      is_owner: boolean;
    }>({ ...LIVE_CREDENTIAL, values: [credentialId] });
    if (!row) return null;
    const credential: KnownCredential = {
      secret_hash: row.secret_hash,
      expires_at: row.expires_at?.getTime() ?? null,
      actor: { tenant_id: row.tenant_id, api_key_id: row.api_key_id, name: row.name, scopes: Object.freeze(row.scopes) as string[], is_owner: row.is_owner },
    };
    if (this.listening && generation === this.generation) this.known.set(credentialId, credential);
    return credential;
  }

  /** Whatever was said while nobody listened is unknown: start from nothing, and a lookup begun before must not be stored. */
  private forgetAll(): void {
    this.generation++;
    this.known.clear();
  }
}

/** The authenticator a started identity subgraph runs (its hooks). */
export function authenticatorOf(runtime: SubgraphRuntime): Authenticator {
  const { authenticator } = runtime.hooks as { authenticator?: unknown };
  if (!(authenticator instanceof Authenticator)) throw new Error(`${runtime.definition.name} is not the identity subgraph`);
  return authenticator;
}

/** Identity in this process, as the gateway started with it asks: its authenticator and its audit trail. */
export function inProcessIdentity(runtime: SubgraphRuntime): IdentityClient {
  const authenticator = authenticatorOf(runtime);
  return {
    authenticate: (token) => authenticator.authenticate(token),
    recordAudit: (row) => runtime.audit.record(row),
  };
}
