import { buildSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLResolverMap } from '@apollo/subgraph/dist/schema-helper/resolverMap';
import { parse, type GraphQLResolveInfo, type GraphQLSchema } from 'graphql';
import type { DataSource, EntityManager, EntitySchema, MigrationInterface } from 'typeorm';
import { verifyContext, type Actor, type CallContext } from './actor';
import { AuditLog } from './audit';
import { createDataSource, migrate } from './db/data-source';
import { AppError } from './errors';
import { newId } from './ids';
import { OperationExecutor } from './executor';
import { operationsSchema } from './graphql-sdl';
import type { EventDeclaration, EventDraft } from './event';
import { fieldName, type Operation } from './operation';
import { OutboxRelay, type RelayOptions } from './outbox';
import { missingPorts, type PortDeclarations } from './ports';
import type { TObject, TSchema } from './schema';
import { consumerQueue, handleDeliveries, type ConsumerDefinition, type ConsumerHost } from './bus/consumer';
import { taskQueue, taskTransaction, type TaskDefinition } from './bus/task';
import type { EventBus } from './bus/event-bus';
import { cronOf, runJob, type JobDefinition, type JobRun } from './bus/job';
import { platformReads } from './platform-reads';
import { PreparedJson } from './prepared';
import { preparedInput, selectsPath } from './selection-projection';
import { DateTime, JSONScalar, SafeInt } from './scalars';
import { metrics, observeSubgraph, operationTimer } from './observability/metrics';

/**
 * What a subgraph owns and serves, in one place: its operations, the events they emit, its tables
 * (entities, migrations), and the ports it needs from outside (`P`: what its handlers get as
 * `call.ports`).
 */
export interface SubgraphDefinition<P extends object = Record<never, never>> {
  name: string;
  /** What it owns, in a line: its operations' tag description in the OpenAPI document (/v1/docs groups them by subgraph). */
  summary: string;
  /** Port of the subgraph when it runs alone. */
  defaultPort: number;
  /** Where its generated GraphQL schema is committed. */
  schemaFile: string;
  /** Its commands and reads, one file each: `src/operations/<operation name>.ts`. */
  operations: Operation<TObject, TSchema, P>[];
  /** Every event its operations emit, with its payload schema (`src/events.ts`). */
  events: readonly EventDeclaration[];
  /** What it needs from outside itself, given when it is started (none when absent). */
  ports?: PortDeclarations<P>;
  entities: EntitySchema[];
  migrations: (new () => MigrationInterface)[];
  /** Hand-written federation types beside the generated operation fields. */
  typeDefs?: string;
  /** Resolvers beside the operations' (e.g. entity references), given the started subgraph's database. */
  resolvers?: (runtime: { dataSource: DataSource }) => GraphQLResolverMap<SubgraphContext>;
  /** What the subgraph runs beside its operations while it is started (a cache and its invalidation). */
  hooks?: (runtime: SubgraphRuntime) => SubgraphHooks;
  /** Its reactions to events of any subgraph, delivered by the bus. */
  consumers?: ConsumerDefinition<P>[];
  /** Its background work with retries, queued by its commands and consumers (`call.enqueue`). */
  tasks?: TaskDefinition<never, P>[];
  /** Its scheduled work, one run at a time across processes. */
  jobs?: JobDefinition[];
  /** Copies derived from its tables (rendered documents, listings) that its commands' events keep in step. */
  derived?: DerivedCopies;
  /** Its other code writing events (`writeEvents`), by the name it drafts them under: every declared event has its emitters. */
  emitters?: ReadonlyArray<{ name: string; emits: readonly EventDeclaration[] }>;
}

/**
 * Derived copies kept in step in the command's own transaction, after its writes (staged ones too)
 * and before its commit: a command never commits without them, and no command writes them by hand.
 */
export interface DerivedCopies {
  /** The events after which `refresh` runs; a command that emits none of them commits as before. */
  events: readonly EventDeclaration[];
  /**
   * Brings the copies in line with what the command wrote (its events name what changed). May return
   * what the process is to be told once the command has committed (e.g. a cache's new version).
   */
  refresh(db: EntityManager, events: readonly EventDraft[], tenantId: string): Promise<undefined | (() => void)>;
}

/**
 * A connection's arguments with explicit nulls dropped (a Relay client sends `after: null` for the
 * first page): null means absent there, also inside `filter` and `orderBy`.
 */
function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.entries(args).filter(([, value]) => value !== null);
  return Object.fromEntries(
    kept.map(([key, value]) => [key, value && typeof value === 'object' && !Array.isArray(value) ? withoutNulls(value as Record<string, unknown>) : value]),
  );
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
  return [...definition.operations, ...platformReads(definition.name, definition.events)];
}

/** What may emit each of a subgraph's events: its operations, consumers and tasks, by name. */
export function emittersOf(definition: SubgraphDefinition): Map<EventDeclaration, string[]> {
  const emitters = new Map<EventDeclaration, string[]>();
  const sources = [
    ...definition.operations.map((op) => ({ name: op.name, emits: op.events })),
    ...(definition.consumers ?? []).map((consumer) => ({ name: consumer.name, emits: consumer.emits ?? [] })),
    ...(definition.tasks ?? []).map((task) => ({ name: task.name, emits: task.emits ?? [] })),
    ...(definition.emitters ?? []),
  ];
  for (const { name, emits } of sources) for (const event of emits) emitters.set(event, [...(emitters.get(event) ?? []), name]);
  return emitters;
}

/** What is wrong with a definition's declarations: an operation, consumer or task emitting an event the subgraph does not declare. */
export function definitionProblems(definition: SubgraphDefinition): string[] {
  return [...emittersOf(definition)]
    .filter(([event]) => !definition.events.includes(event))
    .flatMap(([event, names]) => names.map((name) => `${name} emits ${event.name}, which ${definition.name} does not declare`));
}

/** A subgraph's own DataSource: its schema, entities and migrations (the CLI and tools open one too). */
export function subgraphDataSource(url: string, definition: SubgraphDefinition, poolSize?: number): DataSource {
  return createDataSource(url, { schema: definition.name, entities: definition.entities, migrations: definition.migrations }, poolSize);
}

export function subgraphSdl(definition: SubgraphDefinition): string {
  return subgraphSchema(definition).sdl;
}

function subgraphSchema(definition: SubgraphDefinition) {
  return operationsSchema(subgraphOperations(definition), definition.typeDefs);
}

export interface SubgraphSettings {
  url: string;
  /** Secret the gateway signs call contexts with. */
  contextSecret: string;
  relay?: RelayOptions;
  log?: (line: string) => void;
  /** The transport of events to consumers and of scheduled jobs; without it, events stay in the outbox as `unrouted`. */
  bus?: EventBus | null;
  /** Told of every finished run of one of its jobs (beside the metrics). */
  jobRun?: (run: JobRun & { subgraph: string }) => void;
}

/** How a subgraph is started: its settings and, when it declares any, its ports (`call.ports`). */
export type SubgraphOptions<P extends object = Record<never, never>> = SubgraphSettings & (Record<never, never> extends P ? { ports?: P } : { ports: P });

/** A started subgraph: its DataSource, audit trail, outbox relay and executable schema. */
export class SubgraphRuntime<P extends object = Record<never, never>> {
  readonly dataSource: DataSource;
  readonly audit: AuditLog;
  readonly relay: OutboxRelay;
  readonly executor: OperationExecutor;
  readonly schema: GraphQLSchema;
  readonly operations: Operation[];
  readonly hooks: SubgraphHooks;
  readonly log: (line: string) => void;
  private readonly options: SubgraphSettings & { ports?: P };

  constructor(
    readonly definition: SubgraphDefinition<P>,
    options: SubgraphOptions<P>,
  ) {
    this.options = options;
    // A subgraph started without what it declares would fail on its first request: fail now instead.
    const missing = missingPorts(definition.ports, options.ports);
    if (missing.length) throw new Error(`${definition.name} needs its ports ${missing.join(', ')}`);
    const problems = definitionProblems(definition);
    if (problems.length) throw new Error(problems.join('; '));
    const log = options.log ?? console.error;
    this.log = log;
    this.dataSource = subgraphDataSource(options.url, definition);
    this.audit = new AuditLog(this.dataSource, definition.name, log);
    const bus = options.bus;
    this.relay = new OutboxRelay(this.dataSource, definition.name, {
      log,
      publisher: bus ? (events) => bus.publish(events) : null,
      budget: bus?.budget ?? null,
      ...options.relay,
    });
    this.executor = new OperationExecutor(
      this.dataSource,
      definition.name,
      this.audit,
      log,
      (events) => this.committed(events),
      options.ports,
      {
        tasks: (definition.tasks ?? []) as TaskDefinition<never, never>[],
        queue: bus ?? null,
      },
      definition.derived,
    );
    this.hooks = definition.hooks?.(this) ?? {};
    this.operations = subgraphOperations(definition);
    const { sdl, entityIds } = subgraphSchema(definition);
    this.schema = buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: this.resolvers(entityIds) as GraphQLResolverMap<unknown> });
  }

  private resolvers(entityIds: ReadonlyMap<string, string>): GraphQLResolverMap<SubgraphContext> {
    const Query: Record<string, unknown> = {};
    const Mutation: Record<string, unknown> = {};
    for (const operation of this.operations) {
      const target = operation.kind === 'command' ? Mutation : Query;
      target[operation.connection?.field ?? fieldName(operation.name)] = async (
        _: unknown,
        args: { input?: unknown; [argument: string]: unknown },
        context: SubgraphContext,
        info: GraphQLResolveInfo,
      ) => {
        const done = operationTimer(this.definition.name, operation.name);
        try {
          // A connection takes its input as the field's arguments (`first`, `after`…), any other operation as `input`.
          const input = operation.connection ? withoutNulls(args) : preparedInput(operation, args.input ?? {}, info);
          const result = await this.executor.execute(operation, input, context.call, (path) => selectsPath(info, path));
          done('ok');
          // A prepared answer is text: GraphQL selects from the object it spells.
          return result instanceof PreparedJson ? result.toJSON() : result;
        } catch (error) {
          done(error instanceof AppError ? error.kind : 'internal');
          throw error instanceof AppError ? error.toGraphQLError() : error;
        }
      };
    }
    const own = this.definition.resolvers?.({ dataSource: this.dataSource }) ?? {};
    const map: Record<string, unknown> = { ...own, SafeInt, DateTime, JSON: JSONScalar };
    // Every keyed entity answers its key's value as `id`.
    for (const [type, key] of entityIds) map[type] = { id: (entity: Record<string, unknown>) => entity[key], ...(own[type] as object) };
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
    // Pool and outbox in the metrics; SQL spans when tracing is on.
    this.unobserve = observeSubgraph(this.definition.name, this.dataSource);
    if (runMigrations) await migrate(this.options.url, this.dataSource);
    await this.hooks.start?.();
    await this.startConsumersAndJobs();
    if (relay) this.relay.start();
    return this;
  }

  /** Runs one of this subgraph's jobs now (still one run at a time across processes). */
  async runJobNow(job: string): Promise<void> {
    if (!this.options.bus) throw new Error(`${this.definition.name} runs without a bus`);
    await this.options.bus.runNow(`${this.definition.name}.job.${job}`);
  }

  /** Every consumer gets its queue (subscribed to its events), every task its queue and every job its schedule on the bus. */
  private async startConsumersAndJobs(): Promise<void> {
    const { bus } = this.options;
    const { name, consumers = [], jobs = [], tasks = [] } = this.definition;
    if (!bus) return;
    const ports = (this.options.ports ?? {}) as P;
    const host: ConsumerHost<P> = {
      dataSource: this.dataSource,
      schema: name,
      ports,
      tasks: tasks as TaskDefinition<never, never>[],
      queue: (queued, db) => bus.queue(queued, db),
      log: this.log,
    };
    for (const consumer of consumers) {
      const types = consumer.routes ? await consumer.routes(this.dataSource.manager, ports) : consumer.events;
      await bus.consume(consumerQueue(name, consumer.name), types, async (deliveries) => {
        const started = process.hrtime.bigint();
        const { outcomes, events, queued } = await handleDeliveries(host, consumer, deliveries);
        // Each delivery is charged its share of the batch's time.
        const seconds = Number(process.hrtime.bigint() - started) / 1e9 / Math.max(1, deliveries.length);
        for (const outcome of outcomes) {
          metrics.consumerDelivery({ subgraph: name, consumer: consumer.name, outcome: outcome instanceof Error ? 'failed' : outcome, seconds });
        }
        if (events) this.relay.wake();
        bus.wake(...queued);
        return outcomes.map((outcome) => (outcome instanceof Error ? outcome : null));
      });
    }
    for (const definition of tasks) {
      const transaction = taskTransaction(this.dataSource, name, `task ${definition.name}`, definition.emits ?? [], () => this.relay.wake());
      const retry = typeof definition.retry === 'function' ? definition.retry(ports) : definition.retry;
      // Sound: the queue holds only what `enqueue` took as this task's data type, erased here as `never`.
      await bus.task(taskQueue(name, definition.name), retry, (data, attempt, lastAttempt) =>
        definition.handler({ data: data as never, attempt, lastAttempt, dataSource: this.dataSource, ports, log: this.log, transaction }),
      );
    }
    for (const job of jobs) {
      await bus.schedule(`${name}.job.${job.name}`, cronOf(job.every), () =>
        runJob(
          job,
          { dataSource: this.dataSource, log: this.log, runAs: (tenantId, operation, input) => this.runAsJob(job.name, tenantId, operation, input) },
          (run) => {
            metrics.jobRun({ ...run, subgraph: name });
            this.options.jobRun?.({ ...run, subgraph: name });
          },
        ),
      );
    }
  }

  private runAsJob(job: string, tenantId: string, operation: Operation<TObject, TSchema, never>, input: Record<string, unknown>): Promise<unknown> {
    const actor: Actor = {
      tenant_id: tenantId,
      api_key_id: `job:${this.definition.name}.${job}`,
      credential_id: 'job',
      name: `job ${job}`,
      scopes: operation.scope ? [operation.scope] : [],
      is_owner: false,
    };
    return this.executor.execute(operation as Operation, input, { actor, request_id: newId('req') });
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

  private unobserve?: () => void;

  async stop(): Promise<void> {
    this.unobserve?.();
    await this.audit.flush();
    await this.relay.stop();
    await this.hooks.stop?.();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
