import { poolOf, type Actor, type EventDraft, type SubgraphHooks, type SubgraphRuntime } from '@backoffice/platform';
import { LRUCache } from 'lru-cache';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { apiKeyRevoked, apiKeyRotated } from './events';
import { parseToken, secretMatches } from './tokens';

/** Only generations that are alive: the key not revoked, the generation not past its deadline. */
const LIVE_CREDENTIAL = {
  name: 'identity_live_credential',
  text: `SELECT c.secret_hash, c.api_key_id, c.tenant_id, c.expires_at, k.name, k.scopes, k.is_owner
         FROM identity.credential c JOIN identity.api_key k ON k.id = c.api_key_id
         WHERE c.id = $1 AND k.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > now())`,
};

/**
 * The channel a command that shortens or ends a key's life notifies (inside its transaction, so the
 * notification goes out at commit), with the key's id: other processes drop what they know of it.
 */
export const CREDENTIALS_CHANNEL = 'identity_credentials';

/** How often the notification connection is checked for life. */
const HEARTBEAT_MS = 5_000;

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
  /** The client being connected or listening; events of any older one are ignored. */
  private current: Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private listening = false;
  private stopped = true;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = 500;
  /** Bumped by every forget: a lookup that started before it must not store what it read. */
  private generation = 0;
  private readonly log: (line: string) => void;

  constructor(
    private readonly dataSource: DataSource,
    options: AuthenticatorOptions = {},
  ) {
    // Bounded in bytes too (about 4 MiB): a key's name and scopes make an entry's size.
    this.known = new LRUCache({
      max: options.max ?? 10_000,
      maxSize: 4 * 1024 * 1024,
      sizeCalculation: (credential, id) => 2 * (id.length + credential.actor.name.length + credential.actor.scopes.join().length) + 256,
      ttl: options.ttlMs ?? 30_000,
    });
    this.log = options.log ?? console.error;
  }

  /** The actor behind a bearer token, or null when the token is malformed, unknown, expired or revoked. */
  async authenticate(token: string): Promise<Actor | null> {
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

  /** Drops every generation of a key. */
  forgetKey(apiKeyId: string): void {
    this.generation++;
    const stale = [...this.known.entries()].filter(([, credential]) => credential.actor.api_key_id === apiKeyId);
    for (const [credentialId] of stale) this.known.delete(credentialId);
  }

  committed(events: readonly EventDraft[]): void {
    for (const event of events) {
      if (KEY_LIFE_EVENTS.has(event.type)) this.forgetKey(String(event.payload.api_key_id));
    }
  }

  async start(): Promise<void> {
    if (!this.stopped) return;
    this.stopped = false;
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    this.deaf();
    const client = this.current;
    this.current = null;
    await client?.end().catch(() => undefined);
  }

  private async lookUp(credentialId: string): Promise<KnownCredential | null> {
    const generation = this.generation;
    // A named statement on the raw pool: parsed once per connection, this runs on every request.
    const { rows } = await poolOf(this.dataSource).query({ ...LIVE_CREDENTIAL, values: [credentialId] });
    const row = rows[0] as
      | { secret_hash: Buffer; api_key_id: string; tenant_id: string; expires_at: Date | null; name: string; scopes: string[]; is_owner: boolean }
      | undefined;
    if (!row) return null;
    const credential: KnownCredential = {
      secret_hash: row.secret_hash,
      expires_at: row.expires_at?.getTime() ?? null,
      actor: { tenant_id: row.tenant_id, api_key_id: row.api_key_id, name: row.name, scopes: Object.freeze(row.scopes) as string[], is_owner: row.is_owner },
    };
    if (this.listening && generation === this.generation) this.known.set(credentialId, credential);
    return credential;
  }

  private async listen(): Promise<void> {
    const client = new Client({ ...poolOf(this.dataSource).options, application_name: 'backoffice-identity-listen', keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    this.current = client;
    client.on('notification', (message) => {
      if (message.payload) this.forgetKey(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection closed')));
    try {
      await client.connect();
      await client.query(`LISTEN ${CREDENTIALS_CHANNEL}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.retryMs = 500;
    // Whatever was said while nobody listened is unknown: start from nothing, and a lookup that
    // began while deaf must not be stored (its key may have been revoked unheard).
    this.generation++;
    this.known.clear();
    this.listening = true;
    // A connection can die without a word (a half-open socket): ask it something now and then, and
    // count it lost when the previous question is still unanswered.
    let answered = true;
    this.heartbeat = setInterval(() => {
      if (!answered) return this.lost(client, new Error(`no answer within ${HEARTBEAT_MS} ms`));
      answered = false;
      client.query('SELECT 1').then(
        () => (answered = true),
        (error: Error) => this.lost(client, error),
      );
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private deaf(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.listening = false;
    this.generation++;
    this.known.clear();
  }

  private lost(client: Client, error: Error): void {
    if (client !== this.current) return;
    this.current = null;
    this.deaf();
    // Destroyed, not ended: a half-open socket would otherwise stay open until TCP gives up.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    this.log(`identity: credential notifications lost (${error.message}); looking every token up until they are back`);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.listen();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }
}

/** The authenticator a started identity subgraph runs (its hooks). */
export function authenticatorOf(runtime: SubgraphRuntime): Authenticator {
  const { authenticator } = runtime.hooks as { authenticator?: unknown };
  if (!(authenticator instanceof Authenticator)) throw new Error(`${runtime.definition.name} is not the identity subgraph`);
  return authenticator;
}
