import { getComplexity, type ComplexityEstimator } from 'graphql-query-complexity';
import { LRUCache } from 'lru-cache';
import {
  getNamedType,
  getNullableType,
  isInputObjectType,
  isListType,
  isObjectType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';

/**
 * The bounds of one GraphQL document. Each refusal is 400 `validation_failed` naming the limit.
 * The static ones (size and shape of the document) come from GraphQL Armor; the cost, which depends
 * on variables (a page's `limit`), is computed per request and also sets the rate charge.
 */
export const GRAPHQL_LIMITS = {
  /** Lexical tokens in the document: bounds its size before it is parsed. */
  maxTokens: 2000,
  /** Nesting of selections. */
  maxDepth: 10,
  /** Aliased fields in the whole document (fragments expanded). */
  maxAliases: 20,
  /** Directives in the whole document. */
  maxDirectives: 20,
  /** Root fields after expanding fragments: each is one operation. */
  maxRootFields: 20,
  /**
   * Estimated cost: every field 1, a field's list multiplies what is under it by the most items it
   * holds (below), so the estimate bounds the fields an answer can have. A storefront page of 100
   * products in the feed projection is within it; the REST shim's and MCP's own documents (bounded by
   * their input schemas) are not held to it.
   */
  maxCost: 1_000_000,
  /**
   * The length counted for a list whose field declares no `@listSize`: none does (every result's list
   * declares its most items, a test holds it), so this only keeps a future omission bounded.
   */
  unsizedList: 100,
  /**
   * The length counted for an introspection list (`__Schema.types`, `__Type.fields`…): answered from
   * the schema in memory, they hold what the schema holds, which their most would overcount many times
   * over (every type as long as the longest); counted 5 each, an explorer's introspection query is
   * within the limit and a cycle of `fields { type { fields … } }` is not.
   */
  introspectionList: 5,
  /** Every root field costs one token of the caller's rate; each further full `costPerToken` of cost, one more. */
  costPerToken: 150_000,
  /** Bytes of one /graphql answer: a larger one is refused whole (400 `validation_failed`), never sent in part. */
  maxAnswerBytes: 16 * 1024 * 1024,
} as const;

/** The page size a field asks for: its `input.limit` or a connection's `first`/`last`, else the default 24; null when it takes none. */
function pageSize(field: GraphQLField<unknown, unknown>, args: Record<string, unknown>): number | null {
  if (field.args.some((a) => a.name === 'first')) {
    const size = args.first ?? args.last;
    return typeof size === 'number' ? size : 24;
  }
  const input = field.args.find((a) => a.name === 'input');
  const type = input && getNamedType(input.type);
  if (!type || !isInputObjectType(type) || !type.getFields().limit) return null;
  const limit = (args.input as { limit?: unknown } | undefined)?.limit;
  return typeof limit === 'number' ? limit : 24;
}

/** The most items each list field returns, by `Type.field`, as its `@listSize(assumedSize:)` declares. */
export type ListSizes = ReadonlyMap<string, number>;

/** The `@listSize` of every field a schema document declares (a subgraph's SDL, or the supergraph's). */
export function listSizesOf(document: DocumentNode): ListSizes {
  const sizes = new Map<string, number>();
  for (const definition of document.definitions) {
    if (!('fields' in definition) || !definition.fields || !('name' in definition) || !definition.name) continue;
    for (const field of definition.fields) {
      const directive = field.directives?.find((d) => d.name.value === 'listSize');
      const size = directive?.arguments?.find((a) => a.name.value === 'assumedSize')?.value;
      if (size?.kind === Kind.INT) sizes.set(`${definition.name.value}.${field.name.value}`, Number(size.value));
    }
  }
  return sizes;
}

/**
 * The list sizes the estimate of a schema reads. The gateway's API schema has lost the supergraph's
 * directives, so it is given them (`useListSizes`); a subgraph's own schema keeps them on its fields.
 */
const sizesBySchema = new WeakMap<GraphQLSchema, ListSizes>();
const estimators = new WeakMap<GraphQLSchema, ComplexityEstimator>();

export function useListSizes(schema: GraphQLSchema, sizes: ListSizes): void {
  sizesBySchema.set(schema, sizes);
  estimators.delete(schema);
}

function listSizesFor(schema: GraphQLSchema): ListSizes {
  let sizes = sizesBySchema.get(schema);
  if (!sizes) {
    const definitions = Object.values(schema.getTypeMap()).flatMap((type) => [type.astNode, ...(type.extensionASTNodes ?? [])].filter((n) => n != null));
    sizes = listSizesOf({ kind: Kind.DOCUMENT, definitions } as DocumentNode);
    sizesBySchema.set(schema, sizes);
  }
  return sizes;
}

/** The most items of a field's list: its declared size (introspection's, its own count). */
const sizeOf = (sizes: ListSizes, type: string, field: string) =>
  type.startsWith('__') ? GRAPHQL_LIMITS.introspectionList : (sizes.get(`${type}.${field}`) ?? GRAPHQL_LIMITS.unsizedList);

/** The size a page field's lists were counted at (its result's largest list: a connection's `edges`, a page's `items`). */
function pagedSize(sizes: ListSizes, field: GraphQLField<unknown, unknown>): number {
  const result = getNamedType(field.type);
  if (!isObjectType(result)) return 1;
  const lists = Object.values(result.getFields()).filter((f) => isListType(getNullableType(f.type)));
  return Math.max(1, ...lists.map((f) => sizeOf(sizes, result.name, f.name)));
}

/**
 * A field's cost: 1 plus what it selects times the most items its list returns (`@listSize`), so a
 * cycle (`Sku.product.skus…`) multiplies at each turn like any nesting. A page field's lists were
 * counted at their most; the page scales them to the size asked.
 */
const estimatorFor =
  (sizes: ListSizes): ComplexityEstimator =>
  ({ type, field, args, childComplexity }) => {
    const page = pageSize(field, args);
    if (page !== null) return 1 + Math.ceil((childComplexity * page) / pagedSize(sizes, field));
    return 1 + childComplexity * (isListType(getNullableType(field.type)) ? sizeOf(sizes, type.name, field.name) : 1);
  };

function estimatorOf(schema: GraphQLSchema): ComplexityEstimator {
  let estimator = estimators.get(schema);
  if (!estimator) {
    estimator = estimatorFor(listSizesFor(schema));
    estimators.set(schema, estimator);
  }
  return estimator;
}

/**
 * Estimates kept per parsed document, by operation and variables: walking a storefront page's
 * document with its types took a large share of a /graphql feed page (docs/decisions/graphql-fast-path.md), and a page asked again
 * (the next visitor, a poll) has the same variables. Each document keeps at most 64 estimates in
 * 64 KiB of keys, and none for variables longer than 1 KiB; the documents are those the gateway's
 * own caches hold, so the estimates go with them.
 */
export const COST_MEMO = { entries: 64, bytes: 64 * 1024, keyBytes: 1024 } as const;
const estimates = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, LRUCache<string, number>>>();

/**
 * Variables as JSON when JSON tells them apart exactly, as they come over HTTP; undefined for a value
 * JSON would drop or rewrite (undefined, a function, a Date or any other object not plain), which
 * variables built in the process may hold: their estimate is worked out each time.
 */
function variablesKey(variables: Record<string, unknown>): string | undefined {
  let exact = true;
  const text = JSON.stringify(variables, function (this: Record<string, unknown>, name: string, value: unknown) {
    const raw = this[name];
    if (raw === undefined || typeof raw === 'function' || typeof raw === 'symbol' || typeof raw === 'bigint') exact = false;
    else if (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && ![Object.prototype, null].includes(Object.getPrototypeOf(raw))) exact = false;
    return exact ? value : undefined;
  });
  return exact ? text : undefined;
}

/** The estimates kept for a document of a schema. */
function estimatesOf(schema: GraphQLSchema, document: DocumentNode): LRUCache<string, number> {
  let bySchema = estimates.get(schema);
  if (!bySchema) {
    bySchema = new WeakMap();
    estimates.set(schema, bySchema);
  }
  let kept = bySchema.get(document);
  if (!kept) {
    kept = new LRUCache({ max: COST_MEMO.entries, maxSize: COST_MEMO.bytes, sizeCalculation: (_, key) => key.length });
    bySchema.set(document, kept);
  }
  return kept;
}

/**
 * The document's estimated cost for these variables. Throws a GraphQLError when it cannot be
 * estimated: variables that do not fit the operation, or more nodes than the estimator visits
 * (a refusal is never kept: it is worked out again, and thrown, each time).
 */
export function documentCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): number {
  const text = variables === undefined ? '' : variablesKey(variables);
  const key = text === undefined ? undefined : `${operationName ?? ''}\n${text}`;
  const kept = key !== undefined && key.length <= COST_MEMO.keyBytes ? estimatesOf(schema, document) : undefined;
  const known = key === undefined ? undefined : kept?.get(key);
  if (known !== undefined) return known;
  const cost = getComplexity({ schema, query: document, variables, operationName: operationName ?? undefined, estimators: [estimatorOf(schema)] });
  if (key !== undefined) kept?.set(key, cost);
  return cost;
}

/** The root fields of the operation, fragments expanded, by response key (alias or name). */
export function rootFields(document: DocumentNode, operation: OperationDefinitionNode): Map<string, FieldNode> {
  const fragments = new Map(document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])));
  const fields = new Map<string, FieldNode>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) fields.set((selection.alias ?? selection.name).value, selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet);
      }
    }
  };
  visit(operation.selectionSet);
  return fields;
}

/** Root fields of the operation, fragments expanded (a spread of ten fields is ten operations). */
export function rootFieldCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  return rootFields(document, operation).size;
}

/** Tokens of the caller's rate a document spends. */
export function rateCost(rootFields: number, cost: number): number {
  return rootFields + Math.floor(cost / GRAPHQL_LIMITS.costPerToken);
}

/**
 * A variable coercion error of graphql-js without the value it quotes: `Variable "$input" got
 * invalid value { … } at "input.x"; <reason>` quotes the whole input object when a field is missing
 * or unknown, and that object may hold a secret (an extension credential). Kept: the variable, the
 * path and the reason (`reason`, the error's `originalError` message, when known).
 */
export function withoutVariableValue(message: string, reason?: string): string {
  const head = /^Variable "\$([^"]+)" got invalid value /.exec(message);
  if (!head) return message;
  if (reason && message.endsWith(`; ${reason}`)) {
    const prefix = message.slice(0, message.length - reason.length - 2);
    const at = / at "([$\w.[\]]+)"$/.exec(prefix);
    return `Variable "$${head[1]}" got an invalid value${at ? ` at "${at[1]}"` : ''}; ${reason}`;
  }
  return `Variable "$${head[1]}" got an invalid value`;
}
