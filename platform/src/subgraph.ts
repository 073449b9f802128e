import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap';
import { parse, type GraphQLSchema } from 'graphql';
import type { DataSource, EntitySchema, MigrationInterface } from 'typeorm';
import { verifyContext, type CallContext } from './actor';
import { AuditLog } from './audit';
import { createDataSource, migrate } from './db/data-source';
import { AppError } from './errors';
import { OperationExecutor } from './executor';
import { operationsSdl } from './graphql-sdl';
import { fieldName, type EventDraft, type Operation } from './operation';
import { OutboxRelay, type RelayOptions } from './outbox';
import { platformReads } from './platform-reads';
import { JSONScalar, SafeInt } from './scalars';

/** What a subgraph owns and serves: its schema (PostgreSQL and GraphQL), its operations. */
export interface SubgraphDefinition {
  name: string;
  /** Port of the subgraph when it runs alone. */
  defaultPort: number;
  /** Where its generated GraphQL schema is committed. */
  schemaFile: string;
  operations: Operation[];
  entities: EntitySchema[];
  migrations: (new () => MigrationInterface)[];
  /** Hand-written federation types beside the generated operation fields. */
  typeDefs?: string;
  /** Resolvers beside the operations' (e.g. entity references), given the started subgraph's database. */
  resolvers?: (runtime: { dataSource: DataSource }) => GraphQLResolverMap<SubgraphContext>;
  /** What the subgraph runs beside its operations while it is started (a cache and its invalidation). */
  hooks?: (runtime: SubgraphRuntime) => SubgraphHooks;
}

/** A subgraph's own lifecycle work. `committed` runs in process, right after a command's commit. */
export interface SubgraphHooks {
  start?(): Promise<void>;
  stop?(): Promise<void>;
  committed?(events: readonly EventDraft[]): void;
}

export interface SubgraphContext {
  call: CallContext | null;
}

export function subgraphOperations(definition: SubgraphDefinition): Operation[] {
  return [...definition.operations, ...platformReads(definition.name)];
}

/** A subgraph's own DataSource: its schema, entities and migrations (the CLI and tools open one too). */
export function subgraphDataSource(url: string, definition: SubgraphDefinition, poolSize?: number): DataSource {
  return createDataSource(url, { schema: definition.name, entities: definition.entities, migrations: definition.migrations }, poolSize);
}

export function subgraphSdl(definition: SubgraphDefinition): string {
  return operationsSdl(subgraphOperations(definition), definition.typeDefs);
}

export interface SubgraphOptions {
  url: string;
  /** Secret the gateway signs call contexts with. */
  contextSecret: string;
  relay?: RelayOptions;
  log?: (line: string) => void;
  /** Handed to every handler as `call.services`: how this subgraph reaches others (never their tables). */
  services?: Readonly<Record<string, unknown>>;
}

/** A started subgraph: its DataSource, audit trail, outbox relay and executable schema. */
export class SubgraphRuntime {
  readonly dataSource: DataSource;
  readonly audit: AuditLog;
  readonly relay: OutboxRelay;
  readonly executor: OperationExecutor;
  readonly schema: GraphQLSchema;
  readonly operations: Operation[];
  readonly hooks: SubgraphHooks;
  readonly log: (line: string) => void;

  constructor(
    readonly definition: SubgraphDefinition,
    private readonly options: SubgraphOptions,
  ) {
    const log = (this.log = options.log ?? console.error);
    this.dataSource = subgraphDataSource(options.url, definition);
    this.audit = new AuditLog(this.dataSource, definition.name, log);
    this.relay = new OutboxRelay(this.dataSource, definition.name, { log, ...options.relay });
    this.executor = new OperationExecutor(this.dataSource, definition.name, this.audit, log, (events) => this.committed(events), options.services);
    this.hooks = definition.hooks?.(this) ?? {};
    this.operations = subgraphOperations(definition);
    this.schema = buildSubgraphSchema({ typeDefs: parse(subgraphSdl(definition)), resolvers: this.resolvers() as GraphQLResolverMap<unknown> });
  }

  private resolvers(): GraphQLResolverMap<SubgraphContext> {
    const Query: Record<string, unknown> = {};
    const Mutation: Record<string, unknown> = {};
    for (const operation of this.operations) {
      const target = operation.kind === 'command' ? Mutation : Query;
      target[fieldName(operation.name)] = async (_: unknown, args: { input?: unknown }, context: SubgraphContext) => {
        try {
          return await this.executor.execute(operation, args.input ?? {}, context.call);
        } catch (error) {
          throw error instanceof AppError ? error.toGraphQLError() : error;
        }
      };
    }
    const own = this.definition.resolvers?.({ dataSource: this.dataSource }) ?? {};
    const map: Record<string, unknown> = { ...own, SafeInt, JSON: JSONScalar };
    map.Query = { ...(own.Query as object), ...Query };
    if (Object.keys(Mutation).length) map.Mutation = { ...(own.Mutation as object), ...Mutation };
    return map as GraphQLResolverMap<SubgraphContext>;
  }

  /** The GraphQL context of a request, from the gateway's signed header; a forged one yields no call. */
  get contextSecret(): string {
    return this.options.contextSecret;
  }

  contextFor(header: string | undefined): SubgraphContext {
    return { call: verifyContext(this.options.contextSecret, header) };
  }

  async start({ runMigrations = true, relay = true } = {}): Promise<this> {
    await this.dataSource.initialize();
    if (runMigrations) await migrate(this.options.url, this.dataSource);
    await this.hooks.start?.();
    if (relay) this.relay.start();
    return this;
  }

  private committed(events: readonly EventDraft[]): void {
    this.relay.wake();
    try {
      this.hooks.committed?.(events);
    } catch (error) {
      // The command has committed: a failing reaction must not turn its answer into an error.
      this.log(`${this.definition.name}: after-commit hook failed: ${(error as Error).message}`);
    }
  }

  async ready(): Promise<boolean> {
    try {
      await this.dataSource.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  async stop(): Promise<void> {
    await this.audit.flush();
    await this.relay.stop();
    await this.hooks.stop?.();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
