import { BREAK, isListType, isNonNullType, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/*
 * Compiled execution of the subgraphs' fetch documents in this process (data-sources.ts): graphql-jit
 * turns a document into a function over the subgraph's resolvers, for the documents it runs as
 * graphql-js does.
 */

/** The document compiled, or nothing when graphql-jit would not run it as graphql-js does, or safely (see `compilable`): graphql-js runs it. */
export function compiledQuery(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CompiledQuery | undefined {
  if (!compilable(schema, document)) return undefined;
  try {
    const query = compileQuery(schema, document, operationName);
    return isCompiledQuery(query) ? query : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The documents graphql-jit runs as graphql-js does, and safely: plain fields (no alias, directive or
 * fragment spread; inline fragments, as `_entities` is asked), variables without defaults, literals
 * that are whole numbers, booleans or null. The planner's fetches of the admin's documents are such.
 * What each rule keeps out, seen with graphql-jit 0.8.9:
 * - it writes literal arguments into the code it generates: a string (or an enum literal a JSON
 *   scalar reads as one) starting with its date marker, `__MAGIC_DATE__…`, becomes `new Date(…)` around
 *   the rest, a client's text run in this process; an object's `__proto__` key sets a prototype;
 * - a variable inside an input object or list literal becomes null when not given (graphql-js leaves
 *   the field out); a non-null variable's default is not applied; `@include(if: $b)` takes null as
 *   false; a fragment spread under `@include` in one place drops its fields in another;
 * - an alias or a variable named `__proto__` is lost;
 * - each field's `info` is kept under its response path's keys joined with `_`: two paths that join
 *   alike share one (`a { b_c }` and `a_b { c }`), and a resolver would read another field's selection.
 */
export function compilable(schema: GraphQLSchema, document: DocumentNode): boolean {
  let plain = true;
  const refuse = () => {
    plain = false;
    return BREAK;
  };
  const typeInfo = new TypeInfo(schema);
  // The fields above: each one's segment of its children's info names (an `idx` per list level, then its key) and its place.
  const names: string[] = [];
  const places: string[] = [];
  const seen = new Map<string, string>();
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      StringValue: refuse,
      ObjectValue: refuse,
      ListValue: refuse,
      FloatValue: refuse,
      EnumValue: refuse,
      Directive: refuse,
      FragmentSpread: refuse,
      FragmentDefinition: refuse,
      VariableDefinition: (node) => (node.defaultValue || node.variable.name.value.startsWith('__') ? refuse() : undefined),
      Field: {
        enter(node) {
          const key = node.name.value;
          if (node.alias || key.includes('idx')) return refuse();
          // Leaf first, as graphql-jit joins them (its `idx<depth>` read as `idx`: no key holds `idx`).
          const name = [key, ...names.toReversed()].join('_');
          places.push(`${typeInfo.getParentType()?.name}.${key}`);
          const place = places.join('/');
          let type = typeInfo.getType();
          let segment = key;
          while (type && (isNonNullType(type) || isListType(type))) {
            if (isListType(type)) segment = `idx_${segment}`;
            type = type.ofType;
          }
          names.push(segment);
          if ((seen.get(name) ?? place) !== place) return refuse();
          seen.set(name, place);
          return undefined;
        },
        leave() {
          names.pop();
          places.pop();
        },
      },
    }),
  );
  return plain;
}

/**
 * Variables made in this process (the event stream's, REST's) may hold `undefined`: graphql-js takes
 * it as absent, graphql-jit as null, so those run on graphql-js (JSON never holds it).
 */
export function holdsUndefined(value: unknown): boolean {
  if (value === undefined) return true;
  if (value === null || typeof value !== 'object') return false;
  return Array.isArray(value) ? value.some(holdsUndefined) : Object.values(value).some(holdsUndefined);
}
