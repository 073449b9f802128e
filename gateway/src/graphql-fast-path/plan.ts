import type { PlanNode, QueryPlanSelectionNode } from '@apollo/query-planner';
import type { TraceHeaders } from '@backoffice/platform';
import { ERRORS } from '@apollo/federation-internals';
import {
  GraphQLEnumType,
  type GraphQLError,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLObjectType,
  GraphQLString,
  getNamedType,
  isObjectType,
  isScalarType,
  Kind,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Admission } from '../admission';
import type { InProcessDataSource } from '../data-sources';

/**
 * The /graphql lane's way through a query plan of several fetches (an admin list reading the orders
 * subgraph, then the catalog's SKUs behind its items): the plan is run as @apollo/gateway runs it
 * (executeQueryPlan.js: fetches in sequence and in parallel, entities gathered at a path, their
 * representations sent in one batch per fetch, answers merged in place, error paths rewritten; an
 * entity met at several places is asked for once, as Apollo Router does), and
 * the answer is cut to the client's selection as its resultShaping.js does (nulls bubbling up to a
 * nullable field, value-completion errors in `extensions` when no fetch failed). Only what that is
 * exact for is taken (see `lanePlanOf`); `test/graphql-lane.test.ts` answers the same requests both
 * ways, to the byte. What it saves is the gateway's generic walk over the answer, a good part of an
 * admin list's time (docs/decisions/graphql-fast-path.md).
 */

type Json = Record<string, unknown>;

/** A field of the client's selection, resolved against the API schema once. */
interface ShapeField {
  key: string;
  /** The parent object type's name (error messages, `__typename`). */
  parent: string;
  typename: boolean;
  type: GraphQLOutputType;
  fields?: ShapeField[];
  /** A scalar or enum field (not a list): its value is taken as it is when valid, as `shaped` would. */
  leaf?: { nonNull: boolean; named: GraphQLOutputType };
}

type Step =
  | { kind: 'Fetch'; source: InProcessDataSource; subgraph: string; query: string; operationName?: string; variables: string[]; requires?: Requires }
  | { kind: 'Flatten'; path: string[]; step: Step }
  | { kind: 'Sequence' | 'Parallel'; steps: Step[] };

/** `... on Type { __typename key … }`: the representation of an entity. */
interface Requires {
  typename: string;
  fields: string[];
}

export interface LanePlan {
  root: Step;
  shape: ShapeField[];
}

/** What running a plan gives: the data cut to the client's selection, and the shaping's errors. */
export interface PlanResult {
  data: Json | null;
  completion: GraphQLError[];
}

/** Where a run reports its errors, in the order they come. */
export interface PlanErrors {
  /** A subgraph's error, with its path in the client's answer. */
  downstream(error: GraphQLError, subgraph: string, path: readonly (string | number)[] | undefined): void;
  /** A fetch that threw (the gateway's internal error). */
  failed(error: unknown): void;
}

/** The client's selection when it is plain fields on object types (no fragment, directive, introspection or repeated key). */
function shapeOf(set: SelectionSetNode, parent: GraphQLObjectType): ShapeField[] | null {
  const fields: ShapeField[] = [];
  const keys = new Set<string>();
  for (const selection of set.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    const name = selection.name.value;
    const key = selection.alias?.value ?? name;
    // Keys become properties of plain objects here: none of the reserved `__` names but `__typename`'s own.
    if (keys.has(key) || (key.startsWith('__') && key !== '__typename')) return null;
    keys.add(key);
    if (name === '__typename') {
      fields.push({ key, parent: parent.name, typename: true, type: GraphQLString });
      continue;
    }
    const definition = parent.getFields()[name];
    if (!definition || name.startsWith('__')) return null;
    const named = getNamedType(definition.type);
    let inner: ShapeField[] | undefined;
    if (selection.selectionSet) {
      if (!isObjectType(named)) return null;
      const nested = shapeOf(selection.selectionSet, named);
      if (!nested) return null;
      inner = nested;
    }
    const bare = definition.type instanceof GraphQLNonNull ? definition.type.ofType : definition.type;
    const leaf = inner || bare instanceof GraphQLList ? undefined : { nonNull: bare !== definition.type, named: bare };
    fields.push({ key, parent: parent.name, typename: false, type: definition.type, fields: inner, leaf });
  }
  return fields;
}

function requiresOf(selections: QueryPlanSelectionNode[] | undefined): Requires | undefined | null {
  if (!selections) return undefined;
  const [only] = selections;
  if (selections.length !== 1 || only.kind !== 'InlineFragment' || !only.typeCondition) return null;
  const fields: string[] = [];
  for (const s of only.selections) {
    if (s.kind !== 'Field' || s.alias || s.selections) return null;
    fields.push(s.name);
  }
  return { typename: only.typeCondition, fields };
}

/** The plan as steps the lane runs exactly as the gateway would, or null. */
function stepOf(schema: GraphQLSchema, node: PlanNode, sources: ReadonlyMap<string, InProcessDataSource>, nested: boolean): Step | null {
  switch (node.kind) {
    case 'Fetch': {
      const source = sources.get(node.serviceName);
      const requires = requiresOf(node.requires);
      if (!source || requires === null || Boolean(requires) !== nested || node.hasDefers) return null;
      // An entity named by its object type: the gateway's type-condition test is then a comparison of names.
      if (requires && !isObjectType(schema.getType(requires.typename))) return null;
      if (node.inputRewrites?.length || node.outputRewrites?.length || node.contextRewrites?.length) return null;
      return {
        kind: 'Fetch',
        source,
        subgraph: node.serviceName,
        query: node.operation,
        operationName: node.operationName,
        variables: node.variableUsages ?? [],
        requires,
      };
    }
    case 'Flatten': {
      if (!node.path.every((p): p is string => typeof p === 'string' && (p === '@' || /^\w+$/.test(p)))) return null;
      const step = stepOf(schema, node.node, sources, true);
      return step && { kind: 'Flatten', path: node.path as string[], step };
    }
    case 'Sequence':
    case 'Parallel': {
      const steps = node.nodes.map((n) => stepOf(schema, n, sources, nested));
      return steps.every((s): s is Step => s !== null) ? { kind: node.kind, steps } : null;
    }
    default:
      return null;
  }
}

/** A plan the lane can run: a query whose every fetch is to a subgraph in this process, for a plain selection. */
export function lanePlanOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  node: PlanNode | undefined,
  sources: ReadonlyMap<string, InProcessDataSource>,
): LanePlan | null {
  const rootType = schema.getQueryType();
  if (operation.operation !== 'query' || operation.directives?.length || !rootType || !node) return null;
  const shape = shapeOf(operation.selectionSet, rootType);
  const root = shape && stepOf(schema, node, sources, false);
  return shape && root ? { root, shape } : null;
}

interface Cursor {
  path: string[];
  data: unknown;
}

interface Run {
  full: Json;
  variables: Record<string, unknown>;
  admission: Admission;
  trace?: TraceHeaders;
  errors: PlanErrors;
}

const own = (value: unknown, key: string): unknown =>
  value !== null && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Json)[key] : undefined;

/** `flattenResultsAtPath`: the values at a path, `@` stepping into every element of a list. */
function valuesAt(value: unknown, path: readonly string[]): unknown {
  if (path.length === 0 || value === undefined || value === null) return value;
  const [head, ...rest] = path;
  if (head === '@') return (value as unknown[]).flatMap((element) => valuesAt(element, rest));
  if (Array.isArray(value)) throw new Error(`unexpected list in the result at ${head}`);
  return valuesAt(own(value, head), rest);
}

/** `generateHydratedPaths`: the paths of the values at a path, each list element by its index. */
function hydrated(parent: (string | number)[], path: readonly string[], data: unknown, into: (string | number)[][]): void {
  if (data == null) return;
  const [head] = path;
  if (head === undefined) into.push([...parent]);
  else if (head === '@' || Array.isArray(data)) {
    if (!Array.isArray(data)) throw new Error('expected a list at @');
    const rest = head === '@' ? path.slice(1) : path;
    for (const [i, value] of data.entries()) hydrated([...parent, i], rest, value, into);
  } else if (Object.hasOwn(data as Json, head)) hydrated([...parent, head], path.slice(1), (data as Json)[head], into);
}

const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);

/** `deepMerge`: an answer merged into what is already there. */
function merge(target: Json, source: unknown): void {
  if (source === undefined || source === null) return;
  for (const key of Object.keys(source as Json)) {
    const value = (source as Json)[key];
    if (value === undefined) continue;
    const existing = target[key];
    if (existing && isObject(value)) merge(existing as Json, value);
    else if (Array.isArray(value) && Array.isArray(existing) && value.length === existing.length) {
      value.forEach((element, i) => {
        if (isObject(existing[i]) && isObject(element)) merge(existing[i] as Json, element);
        else existing[i] = element;
      });
    } else target[key] = value;
  }
}

async function runStep(step: Step, cursor: Cursor | undefined, run: Run): Promise<void> {
  if (!cursor) return;
  switch (step.kind) {
    case 'Sequence':
      for (const s of step.steps) await runStep(s, cursor, run);
      return;
    case 'Parallel':
      await Promise.all(step.steps.map((s) => runStep(s, cursor, run)));
      return;
    case 'Flatten': {
      const data = valuesAt(cursor.data, step.path);
      await runStep(step.step, data == null ? undefined : { path: [...cursor.path, ...step.path], data }, run);
      return;
    }
    case 'Fetch':
      try {
        await runFetch(step, cursor, run);
      } catch (error) {
        run.errors.failed(error);
      }
  }
}

async function runFetch(step: Extract<Step, { kind: 'Fetch' }>, cursor: Cursor, run: Run): Promise<void> {
  const entities = (Array.isArray(cursor.data) ? cursor.data.filter((e) => e != null) : [cursor.data]) as Json[];
  if (!entities.length) return;
  const variables: Record<string, unknown> = Object.create(null);
  for (const name of step.variables) if (run.variables[name] !== undefined) variables[name] = run.variables[name];
  /** `at[k]`: where the gateway, which sends every occurrence, would have had representation k (error paths). */
  const send = async (extra: Json, at?: number[][]) => {
    const response = await step.source.request(
      { query: step.query, variables: { ...variables, ...extra }, operationName: step.operationName },
      { call: run.admission.call, signed: run.admission.signed, trace: run.trace },
    );
    if (response.errors?.length) reportErrors(response.errors as GraphQLError[], step, cursor, run, at);
    return response.data as Json | null | undefined;
  };
  if (!step.requires) {
    const data = await send({});
    for (const entity of entities) merge(entity, data);
    return;
  }
  const { typename, fields } = step.requires;
  // An entity met at several places (a SKU on many order lines) is asked for once, as Apollo Router
  // does; its answer is merged at each place and its errors are reported at each.
  const representations: Json[] = [];
  const of: Json[][] = [];
  const at: number[][] = [];
  // By the key's text when it is one text field (a SKU's id: no JSON written per entity), else by its values as JSON.
  const byText = new Map<string, number>();
  const byJson = new Map<string, number>();
  let sent = 0;
  for (const entity of entities) {
    if (entity.__typename !== typename) continue;
    const values = fields.map((f) => own(entity, f));
    if (values.includes(undefined)) continue;
    const text = values.length === 1 && typeof values[0] === 'string';
    const known = text ? byText : byJson;
    const key = text ? (values[0] as string) : JSON.stringify(values);
    const k = known.get(key);
    if (k === undefined) {
      known.set(key, representations.length);
      representations.push(Object.fromEntries(fields.map((f, i) => [f, values[i]])));
      of.push([entity]);
      at.push([sent++]);
    } else {
      of[k].push(entity);
      at[k].push(sent++);
    }
  }
  if (!representations.length) return;
  if ('representations' in variables) throw new Error('Variables cannot contain key "representations"');
  const data = await send({ representations }, at);
  if (!data) return;
  const received = data._entities;
  if (!Array.isArray(received)) throw new Error('Expected "data._entities" in response to be an array');
  if (received.length !== representations.length) throw new Error(`Expected "data._entities" to contain ${representations.length} elements`);
  received.forEach((entity: Json | null, k) => {
    for (const target of of[k]) {
      if (entity && !entity.__typename) entity.__typename = target.__typename;
      merge(target, entity);
    }
  });
}

/**
 * A fetch's errors with the paths of the client's answer (`makeLazyErrorPathGenerator`): an entity's
 * by the place its representation came from; a representation sent once for several places is
 * reported at each, in the order the gateway's one-per-place batch would have reported them.
 */
function reportErrors(errors: GraphQLError[], step: Extract<Step, { kind: 'Fetch' }>, cursor: Cursor, run: Run, at: number[][] | undefined): void {
  let paths: (string | number)[][] | undefined;
  const placed: { error: GraphQLError; index: number; path: readonly (string | number)[] | undefined }[] = [];
  let index = -1;
  for (const error of errors) {
    const k = error.path?.[1];
    if (!step.requires || typeof k !== 'number' || !error.path) {
      placed.push({ error, index, path: error.path && [...cursor.path, ...error.path] });
      continue;
    }
    if (!paths) {
      paths = [];
      hydrated([], cursor.path, run.full, paths);
    }
    for (const sent of at?.[k] ?? [k]) {
      index = sent;
      placed.push({ error, index, path: [...(paths[sent] ?? []), ...error.path.slice(2)] });
    }
  }
  const merged = at?.some((places) => places.length > 1);
  if (merged) placed.sort((a, b) => a.index - b.index);
  for (const { error, path } of placed) run.errors.downstream(error, step.subgraph, path);
}

/** Runs the plan and cuts the answer to the client's selection. */
export async function runLanePlan(
  plan: LanePlan,
  variables: Record<string, unknown>,
  admission: Admission,
  trace: TraceHeaders | undefined,
  errors: PlanErrors,
): Promise<PlanResult> {
  const full: Json = {};
  await runStep(plan.root, { path: [], data: full }, { full, variables, admission, trace, errors });
  const completion: GraphQLError[] = [];
  const data: Json = {};
  const bubbled = applyFields(full, plan.shape, data, [], completion);
  return { data: bubbled ? null : data, completion };
}

// resultShaping.js, for plain fields on object types.

function applyFields(input: Json, fields: ShapeField[], output: Json, path: (string | number)[], errors: GraphQLError[]): boolean {
  for (const field of fields) {
    if (field.typename) {
      output[field.key] = field.parent;
      continue;
    }
    const value = own(input, field.key) ?? null;
    // Most of an answer's values: a valid scalar, or null where null may be; no path or result object made for them.
    if (field.leaf && (value === null ? !field.leaf.nonNull : validLeaf(value, field.leaf.named))) {
      output[field.key] = value;
      continue;
    }
    path.push(field.key);
    const { updated, invalid } = shaped(field, field.type, value, path, errors);
    output[field.key] = updated;
    path.pop();
    if (invalid) return true;
  }
  return false;
}

interface Shaped {
  updated: unknown;
  invalid?: boolean;
  hasErrors?: boolean;
}

function described(path: (string | number)[], type: GraphQLOutputType, parent: string): string {
  const last = path[path.length - 1];
  return typeof last === 'string' ? `field ${parent}.${last}` : `array element of type ${type} at index ${last}`;
}

function shaped(field: ShapeField, type: GraphQLOutputType, input: unknown, path: (string | number)[], errors: GraphQLError[]): Shaped {
  if (type instanceof GraphQLNonNull) {
    const inner = shaped(field, type.ofType, input, path, errors);
    if (inner.updated !== null) return { updated: inner.updated };
    if (!inner.hasErrors) errors.push(invalidGraphql(`Cannot return null for non-nullable ${described(path, type.ofType, field.parent)}.`, path));
    return { updated: null, invalid: true, hasErrors: true };
  }
  if (input === null) return { updated: null };
  if (type instanceof GraphQLList) {
    if (!Array.isArray(input)) throw new Error(`Invalid non-list value ${input} returned by subgraph for list type ${type}`);
    let nullify = false;
    let hasErrors = false;
    const updated = input.map((element, i) => {
      path.push(i);
      const one = shaped(field, type.ofType, element ?? null, path, errors);
      path.pop();
      nullify ||= Boolean(one.invalid);
      hasErrors ||= Boolean(one.hasErrors);
      return one.updated;
    });
    return { updated: nullify ? null : updated, hasErrors };
  }
  if (field.fields) {
    if (typeof input !== 'object') throw new Error(`Invalid non-object value ${input} returned by subgraph for composite type ${type}`);
    const output: Json = {};
    const bubbled = applyFields(input as Json, field.fields, output, path, errors);
    return { updated: bubbled ? null : output, hasErrors: bubbled };
  }
  if (validLeaf(input, type)) return { updated: input };
  errors.push(invalidGraphql(`Invalid value found for ${described(path, type, field.parent)}.`, path));
  return { updated: null, hasErrors: true };
}

const SPECIFIED = new Set(['Boolean', 'Int', 'Float', 'ID', 'String']);

/** `isValidLeafValue` of federation-internals: a custom scalar takes anything. */
function validLeaf(value: unknown, type: GraphQLOutputType): boolean {
  const name = isScalarType(type) && SPECIFIED.has(type.name) ? type.name : null;
  if (!name && !(type instanceof GraphQLEnumType)) return true;
  if (typeof value === 'boolean') return name === 'Boolean';
  if (typeof value === 'number' && Number.isFinite(value)) {
    if (name === 'Int' || name === 'ID') return Number.isSafeInteger(value) || /^-?(?:0|[1-9][0-9]*)$/.test(String(value));
    return name === 'Float';
  }
  if (typeof value === 'string') {
    if (type instanceof GraphQLEnumType) return type.getValue(value) !== undefined;
    return name !== 'Boolean' && name !== 'Int' && name !== 'Float';
  }
  return false;
}

const invalidGraphql = (message: string, path: (string | number)[]) => ERRORS.INVALID_GRAPHQL.err(message, { path: [...path] });
