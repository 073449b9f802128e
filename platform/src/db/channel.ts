import { Client, type ClientConfig } from 'pg';

/** How often a listening connection is checked for life. */
const HEARTBEAT_MS = 5_000;

const CHANNEL_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface ChannelListenerOptions {
  /**
   * Where to listen: the connection settings (or a connection string) of the database the notifying
   * commands write to; a function is asked at each (re)connection.
   */
  connection: ClientConfig | string | (() => ClientConfig | string);
  /** The PostgreSQL channel (lower-case letters, digits, underscores). */
  channel: string;
  /** The connection's `application_name`, so it can be told apart in pg_stat_activity. */
  applicationName: string;
  /** Called with every notification's payload. */
  onNotify(payload: string): void;
  /**
   * Called when the connection listens (again). Whatever was said while nobody listened is unknown:
   * a cache starts from nothing here.
   */
  onListening(): void;
  /** Called when the connection is lost or stopped: a cache must stop trusting what it holds. */
  onDeaf(): void;
  /** The log line for a lost connection (it is retried, backing off from 0.5 s to 30 s). */
  lostLine(error: Error): string;
  log?: (line: string) => void;
}

/**
 * A process's ear on one PostgreSQL NOTIFY channel, for caches that must forget at once what another
 * process changed. A command notifies inside its transaction (`notifyChannel`: delivered at commit,
 * never on rollback); every listening process hears it within milliseconds.
 *
 * A connection can be lost without a word (a half-open socket): it is asked something every 5 s and
 * counted lost when the previous question is still unanswered. While lost, `onDeaf` has been called
 * and the owner must not trust what it remembers; reconnection calls `onListening` again.
 * The listener knows nothing of what the payloads mean.
 */
export class ChannelListener {
  /** The client being connected or listening; events of any older one are ignored. */
  private current: Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = true;
  private retry: NodeJS.Timeout | null = null;
  private retryMs = 500;
  private isListening = false;
  private readonly log: (line: string) => void;

  constructor(private readonly options: ChannelListenerOptions) {
    if (!CHANNEL_NAME.test(options.channel)) throw new Error(`not a channel name: ${options.channel}`);
    this.log = options.log ?? console.error;
  }

  /** True while notifications arrive: only then may a cache trust what it remembers. */
  get listening(): boolean {
    return this.isListening;
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

  private async listen(): Promise<void> {
    const given = typeof this.options.connection === 'function' ? this.options.connection() : this.options.connection;
    const connection = typeof given === 'string' ? { connectionString: given } : given;
    const client = new Client({ ...connection, application_name: this.options.applicationName, keepAlive: true, keepAliveInitialDelayMillis: 10_000 });
    this.current = client;
    client.on('notification', (message) => {
      if (message.channel === this.options.channel && message.payload) this.options.onNotify(message.payload);
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('connection closed')));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.options.channel}`);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.stopped || client !== this.current) {
      await client.end().catch(() => undefined);
      return;
    }
    this.retryMs = 500;
    this.isListening = true;
    this.options.onListening();
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
    this.isListening = false;
    this.options.onDeaf();
  }

  private lost(client: Client, error: Error): void {
    if (client !== this.current) return;
    this.current = null;
    this.deaf();
    // Destroyed, not ended: a half-open socket would otherwise stay open until TCP gives up. pg's types
    // leave out the client's connection; hence the optional chain.
    (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    client.end().catch(() => undefined);
    if (this.stopped || this.retry) return;
    this.log(this.options.lostLine(error));
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.listen();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, 30_000);
  }
}

/**
 * Tells every process listening on `channel` (a `ChannelListener`). Sent inside the caller's
 * transaction: PostgreSQL delivers it at commit, and not at all if the transaction rolls back.
 */
export async function notifyChannel(db: { query(sql: string, params?: unknown[]): Promise<unknown> }, channel: string, payload: string): Promise<void> {
  if (!CHANNEL_NAME.test(channel)) throw new Error(`not a channel name: ${channel}`);
  await db.query(`SELECT pg_notify($1, $2)`, [channel, payload]);
}
