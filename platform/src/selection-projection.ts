import { isObjectType, Kind, type FieldNode, type FragmentDefinitionNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import type { Operation } from './operation';
import type { TSchema } from './schema';
import { unwrapNullable } from './schema';

type Fragments = GraphQLResolveInfo['fragments'];

/** Whether every field the selection asks is declared by `schema` (a projection's), nested objects included. */
function covers(schema: TSchema, set: SelectionSetNode | undefined, fragments: Fragments): boolean {
  if (!set) return true;
  const s = (unwrapNullable(schema) ?? schema) as { type?: string; items?: TSchema; properties?: Record<string, TSchema>; anyOf?: TSchema[] };
  if (s.anyOf) return s.anyOf.every((branch) => covers(branch, set, fragments));
  if (s.type === 'array' && s.items) return covers(s.items, set, fragments);
  // A JSON value (no type) is whole wherever it is declared; an object of no declared fields (a record) may be narrowed.
  if (s.type === undefined) return true;
  if (s.type !== 'object' || !s.properties) return false;
  const properties = s.properties;
  return set.selections.every((selection) => {
    if (selection.kind === Kind.FIELD) {
      const name = selection.name.value;
      return name === '__typename' || (Object.hasOwn(properties, name) && covers(properties[name], selection.selectionSet, fragments));
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) return covers(schema, selection.selectionSet, fragments);
    const fragment: FragmentDefinitionNode | undefined = fragments[selection.name.value];
    return fragment !== undefined && covers(schema, fragment.selectionSet, fragments);
  });
}

const chosen = new WeakMap<FieldNode, string | null>();

/**
 * The narrowest answer a prepared read can give a GraphQL selection: the first declared projection
 * (the catalog's `feed`) whose schema holds every selected field, else null (the whole result). Over
 * GraphQL the selection is the projection: a feed page's fields read the small feed documents, not
 * the full ones. Judged once per field of a parsed document (the gateway keeps documents parsed).
 */
export function projectionForSelection(operation: Operation, info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): string | null {
  const [node] = info.fieldNodes;
  const known = info.fieldNodes.length === 1 ? chosen.get(node) : undefined;
  if (known !== undefined) return known;
  const declared = Object.entries(operation.projections ?? {});
  const found = declared.find(([, schema]) => info.fieldNodes.every((field) => covers(schema, field.selectionSet, info.fragments)))?.[0] ?? null;
  if (info.fieldNodes.length === 1) chosen.set(node, found);
  return found;
}

/**
 * A prepared read's input over GraphQL: the selection is the projection, so it answers the narrowest
 * declared projection holding every selected field, whatever `projection` says, unless it names one
 * not declared (refused by the handler as over REST). Other operations' input is as given.
 */
export function preparedInput(operation: Operation, input: unknown, info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): unknown {
  if (!operation.prepared || !operation.projections) return input;
  const { projection, ...rest } = input as Record<string, unknown>;
  if (typeof projection === 'string' && projection !== 'full' && !Object.hasOwn(operation.projections, projection)) return input;
  const narrowest = projectionForSelection(operation, info);
  return narrowest ? { ...rest, projection: narrowest } : rest;
}

/**
 * Whether a selection stays within a read's answer (its result schema's fields, no link a resolver
 * loads from elsewhere): its GraphQL answer is then a function of the answer alone.
 */
export function selectionWithinAnswer(operation: Operation, info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>): boolean {
  return info.fieldNodes.every((field) => covers(operation.result, field.selectionSet, info.fragments));
}

const asked = new WeakMap<readonly FieldNode[], Map<string, boolean>>();

/** Whether a selection set asks one of `names` of `type`: its fields, and fragments on it, on no type, or on an abstract type (which may be it). */
function asks(set: SelectionSetNode | undefined, type: string, names: ReadonlySet<string>, info: Pick<GraphQLResolveInfo, 'fragments' | 'schema'>): boolean {
  return (set?.selections ?? []).some((selection) => {
    if (selection.kind === Kind.FIELD) return names.has(selection.name.value);
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
    if (!fragment) return false;
    const condition = fragment.typeCondition?.name.value;
    // A fragment on another object type is never this one's.
    if (condition && condition !== type && isObjectType(info.schema.getType(condition))) return false;
    return asks(fragment.selectionSet, type, names, info);
  });
}

/**
 * Whether the field being resolved selects one of `names` on an object of `type` (an entity
 * reference's `_entities`, or a link's own field): a resolver reads the cheaper row when it does not.
 * Judged once per field of a request (graphql-js gives every row of a list the same field nodes).
 */
export function selectsAny(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments' | 'schema'>, type: string, names: readonly string[]): boolean {
  return once(asked, info, `${type}:${names.join(',')}`, () => {
    const set = new Set(names);
    return info.fieldNodes.some((field) => asks(field.selectionSet, type, set, info));
  });
}

/** The fields of `sets` (aliases, fragments and their type conditions looked through). */
function fieldsOf(sets: readonly SelectionSetNode[], fragments: Fragments): FieldNode[] {
  const found: FieldNode[] = [];
  const visit = (set: SelectionSetNode) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) found.push(selection);
      else if (selection.kind === Kind.INLINE_FRAGMENT) visit(selection.selectionSet);
      else if (fragments[selection.name.value]) visit(fragments[selection.name.value].selectionSet);
    }
  };
  for (const set of sets) visit(set);
  return found;
}

/** The selection sets at `path` of the field being resolved ('' for its own; names joined by dots). */
function setsAt(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: string): SelectionSetNode[] {
  let sets = info.fieldNodes.flatMap((field) => (field.selectionSet ? [field.selectionSet] : []));
  for (const name of path ? path.split('.') : []) {
    sets = fieldsOf(sets, info.fragments)
      .filter((field) => field.name.value === name)
      .map((field) => field.selectionSet ?? { kind: Kind.SELECTION_SET, selections: [] });
  }
  return sets;
}

/** A judgement of a field of a request, made once per path (graphql-js gives every row of a list the same field nodes). */
function once<T>(memo: WeakMap<readonly FieldNode[], Map<string, T>>, info: Pick<GraphQLResolveInfo, 'fieldNodes'>, path: string, judge: () => T): T {
  let known = memo.get(info.fieldNodes);
  if (!known) {
    known = new Map<string, T>();
    memo.set(info.fieldNodes, known);
  }
  let found = known.get(path);
  if (found === undefined) {
    found = judge();
    known.set(path, found);
  }
  return found;
}

const selected = new WeakMap<readonly FieldNode[], Map<string, boolean>>();

/**
 * Whether the field being resolved selects the field at `path` of its value (names joined by dots:
 * `totalCount`, `edges.node.items`): an operation's `selects` over GraphQL. A field under `@skip` or
 * `@include` counts as selected. Judged once per field of a request and path.
 */
export function selectsPath(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: string): boolean {
  return once(selected, info, path, () => setsAt(info, path).length > 0);
}

const named = new WeakMap<readonly FieldNode[], Map<string, ReadonlySet<string>>>();

/**
 * The names of the fields selected at `path` of the field being resolved ('' for its own selection;
 * names joined by dots; aliases, fragments and their type conditions looked through): a resolver
 * reads a narrower row when every one of them is in it. Judged once per field of a request and path.
 */
export function fieldNamesAt(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, path: string): ReadonlySet<string> {
  return once(named, info, path, () => new Set(fieldsOf(setsAt(info, path), info.fragments).map((field) => field.name.value)));
}
