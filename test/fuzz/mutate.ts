/**
 * Mutations of a valid-shaped input. A "certain" mutation makes the input wrong whatever else it
 * holds (so a command carrying one can never commit) and says which kinds may answer it; a
 * "decoration" (prototype names as values or keys, odd but valid text) may or may not be wrong.
 */
import type { ErrorKind } from '@backoffice/platform';
import { clone, isPlainObject, nested, put, PROTOTYPE_NAMES, RawNumber } from './json-text';
import { isAnyJson, isOpenRecord, nonNull, type Schema } from './valid';

export const CERTAIN = [
  'wrong_type',
  'missing_required',
  'unknown_field',
  'string_length',
  'huge_string',
  'pattern',
  'enum',
  'int_bounds',
  'huge_number',
  'array_bounds',
  'nul',
  'surrogate',
  'deep_nesting',
  'open_json_number',
  'proto_key',
  'non_object',
] as const;
export const DECORATIONS = ['proto_value', 'proto_key_open', 'unicode'] as const;
export type MutationKind = (typeof CERTAIN)[number] | (typeof DECORATIONS)[number] | 'nonexistent_ref';

/** What fast-check draws: which mutation, where (index into the applicable sites) and which variant. */
export interface MutationSpec {
  kind: MutationKind;
  site: number;
  variant: number;
}

type Path = Array<string | number>;
interface Site {
  path: Path;
  schema: Schema | null; // null: inside open JSON (any value goes)
  value: unknown;
}

/** Every place of `value` with the schema that governs it (open JSON is walked too, schema null). */
function sites(value: unknown, schema: Schema | null, path: Path = [], out: Site[] = []): Site[] {
  out.push({ path, schema, value });
  if (path.length > 40) return out; // past every bound already: nothing deeper is worth a mutation
  const s = schema && nonNull(schema).schema;
  const open = !s || isAnyJson(s) || isOpenRecord(s);
  if (Array.isArray(value)) {
    value.forEach((v, i) => {
      sites(v, open ? null : (s!.items ?? null), [...path, i], out);
    });
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) sites(value[key], open ? null : (s!.properties?.[key] ?? null), [...path, key], out);
  }
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1];
  if (Array.isArray(node)) node[last as number] = value;
  else put(node, String(last), value);
  return root;
}

function deleteAt(root: unknown, path: Path): void {
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  delete node[path[path.length - 1]];
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length];
const typeOf = (site: Site) => (site.schema ? nonNull(site.schema).schema : null);
const closed = (s: Schema | null) => !!s && s.type === 'object' && !!s.properties && s.additionalProperties === false;
const openObject = (s: Schema | null, v: unknown) => isPlainObject(v) && (!s || isAnyJson(s) || isOpenRecord(s));
/** Where a value's own levels start: the input object is level 1, its fields' values level 2. */
const levelOf = (path: Path) => path.length + 1;

const BAD_NUMBERS = [
  '1e400',
  '-1e400',
  '12345678901234567890',
  '-12345678901234567890',
  '9007199254740992',
  '-9007199254740993',
  '1e309',
  '123456789012345678901234567890.5',
];
const LONE_SURROGATES = ['\ud800', '\udfff', '\udc00\ud800', 'a\ud83d'];
const ODD_TEXT = ['😀', 'e\u0301', '\u202eabc', '\ufeff', 'a\u2028b', 'ß', '𝔘𝔫𝔦', '\u00a0'];

function insert(text: string, piece: string, n: number): string {
  const at = n % (text.length + 1);
  return text.slice(0, at) + piece + text.slice(at);
}

/** The string sites of a value, open JSON leaves included. */
const stringSites = (all: Site[]) => all.filter((s) => typeof s.value === 'string');

interface Applied {
  value: unknown;
  certain: boolean;
  kinds: ErrorKind[];
}

const VALIDATION: ErrorKind[] = ['validation_failed'];

/**
 * Applies one mutation to a copy of `input`; null when it has no place to apply in this value.
 * `missing` holds names certain to name nothing (for `nonexistent_ref`).
 */
export function applyMutation(input: unknown, root: Schema, spec: MutationSpec, missing: readonly string[]): Applied | null {
  const value = clone(input);
  const all = sites(value, root);
  const choose = (candidates: Site[]) => (candidates.length ? candidates[spec.site % candidates.length] : null);
  const v = spec.variant;
  const certain = (next: unknown): Applied => ({ value: next, certain: true, kinds: VALIDATION });
  switch (spec.kind) {
    case 'wrong_type': {
      const site = choose(all.filter((s) => typeOf(s) && !isAnyJson(typeOf(s)!)));
      if (!site) return null;
      const s = typeOf(site)!;
      // Lists are left out for arrays (GraphQL coerces one value into a list); null never (GraphQL null = absent).
      const byType: Record<string, unknown[]> = {
        string: [7, true, 1.5, { a: 1 }, ['x', 'y'], nested(40)],
        integer: ['7', 'x', true, { a: 1 }, [1, 2], 1.5],
        number: ['7', true, {}],
        boolean: ['true', 1, 0, {}, [true, false]],
        array: [7, true],
        object: [7, 'x', true, [1]],
      };
      // GraphQL's ID takes an integer as its text (`7` is "7"), as REST does not: an id is given no integer.
      const [key, parent] = [site.path.at(-1), site.path.at(-2)];
      const idLike = [key, parent].some((k) => typeof k === 'string' && (k === 'id' || /_ids?$/.test(k)));
      const options = s.enum ? [7, true, { a: 1 }] : (byType[s.type ?? 'object'] ?? [7]).filter((o) => !(idLike && o === 7));
      return certain(setAt(value, site.path, clone(pick(options, v))));
    }
    case 'missing_required': {
      const site = choose(all.filter((s) => closed(typeOf(s)) && isPlainObject(s.value) && (typeOf(s)!.required ?? []).some((k) => k in (s.value as object))));
      if (!site) return null;
      const present = typeOf(site)!.required!.filter((k) => k in (site.value as object));
      deleteAt(value, [...site.path, pick(present, v)]);
      return certain(value);
    }
    case 'unknown_field': {
      const site = choose(all.filter((s) => closed(typeOf(s)) && isPlainObject(s.value)));
      if (!site) return null;
      const names = ['extra', ...PROTOTYPE_NAMES, 'a\u0000b', 'x\ud800', 'Title', 'x'.repeat(201)].filter((k) => !(k in typeOf(site)!.properties!));
      put(site.value as Record<string, unknown>, pick(names, v), pick([1, 'x', null, {}, [1]], v >> 4));
      return certain(value);
    }
    case 'string_length':
    case 'huge_string': {
      const site = choose(
        stringSites(all).filter(
          (s) => typeOf(s) && !typeOf(s)!.enum && (typeOf(s)!.maxLength !== undefined || (spec.kind === 'string_length' && (typeOf(s)!.minLength ?? 0) > 0)),
        ),
      );
      if (!site) return null;
      const s = typeOf(site)!;
      const unit = pick(['x', 'é', '😀', 'a'], v);
      let length: number;
      if (spec.kind === 'huge_string') length = pick([100_000, 500_000, 1_000_000, 1_100_000], v >> 2);
      else if (s.maxLength === undefined || (s.minLength && v % 3 === 0)) length = 0;
      else length = s.maxLength + 1 + (v % 4 === 1 ? s.maxLength : 0);
      if (s.maxLength !== undefined && length <= s.maxLength && length !== 0) length = s.maxLength + 1;
      if (length === 0 && !(s.minLength ?? 0)) return null;
      return certain(setAt(value, site.path, unit.repeat(length)));
    }
    case 'pattern': {
      const site = choose(stringSites(all).filter((s) => typeOf(s)?.pattern));
      if (!site) return null;
      const re = new RegExp(typeOf(site)!.pattern!);
      const options = ['Bad Handle', '-a', 'a--b', 'a..b', 'UPPER', 'a.', '.a', 'ab1', 'a\u00e9', 'constructor.x.'].filter((c) => !re.test(c));
      return certain(setAt(value, site.path, pick(options, v)));
    }
    case 'enum': {
      const site = choose(stringSites(all).filter((s) => typeOf(s)?.enum));
      if (!site) return null;
      const options = ['bogus', ...PROTOTYPE_NAMES, 'DRAFT', ' active', ''].filter((c) => !typeOf(site)!.enum!.includes(c));
      return certain(setAt(value, site.path, pick(options, v)));
    }
    case 'int_bounds':
    case 'huge_number': {
      const site = choose(all.filter((s) => typeOf(s)?.type === 'integer' && typeof s.value === 'number'));
      if (!site) return null;
      const s = typeOf(site)!;
      const max = s.maximum ?? Number.MAX_SAFE_INTEGER;
      const min = s.minimum ?? -Number.MAX_SAFE_INTEGER;
      const bounds: unknown[] = [1.5, min + 0.5];
      if (max < Number.MAX_SAFE_INTEGER) bounds.push(max + 1);
      if (min > -Number.MAX_SAFE_INTEGER) bounds.push(min - 1);
      const options = spec.kind === 'int_bounds' ? bounds : BAD_NUMBERS.map((t) => new RawNumber(t));
      return certain(setAt(value, site.path, pick(options, v)));
    }
    case 'array_bounds': {
      const site = choose(all.filter((s) => typeOf(s)?.type === 'array' && Array.isArray(s.value)));
      if (!site) return null;
      const s = typeOf(site)!;
      const items = site.value as unknown[];
      const ways: Array<() => unknown[] | null> = [
        () => (s.maxItems === undefined ? null : Array.from({ length: s.maxItems + 1 }, (_, i) => clone(items.length ? items[i % items.length] : 'x'))),
        () => ((s.minItems ?? 0) > 0 ? [] : null),
        () => (s.uniqueItems && items.length ? [...items, clone(items[0])] : null),
      ];
      for (let i = 0; i < ways.length; i++) {
        const next = ways[(v + i) % ways.length]();
        if (next) return certain(setAt(value, site.path, next));
      }
      return null;
    }
    case 'nul':
    case 'surrogate': {
      const piece = spec.kind === 'nul' ? '\u0000' : pick(LONE_SURROGATES, v >> 3);
      const renameKey = v % 3 === 0;
      if (renameKey) {
        // A key of an open object (a closed object's key would be an unknown field anyway).
        const site = choose(all.filter((s) => openObject(typeOf(s), s.value) && Object.keys(s.value as object).length));
        if (site) {
          const obj = site.value as Record<string, unknown>;
          const key = pick(Object.keys(obj), v >> 2);
          const item = obj[key];
          delete obj[key];
          put(obj, insert(key, piece, v), item);
          return certain(value);
        }
      }
      const site = choose(stringSites(all));
      if (!site) return null;
      return certain(setAt(value, site.path, insert(site.value as string, piece, v >> 2)));
    }
    case 'deep_nesting': {
      // Open JSON (metadata) first: that is where nesting is allowed at all; else any field, or the root.
      const open = all.filter((s) => s.path.length && (s.schema === null || isAnyJson(nonNull(s.schema).schema) || isOpenRecord(nonNull(s.schema).schema)));
      const site =
        choose(open.length ? open : all.filter((s) => s.path.length)) ?? (isPlainObject(value) ? { path: ['nested'], schema: null, value: undefined } : null);
      if (!site) return null;
      const extra = pick([0, 1, 7, 9, 100, 1000], v); // (5000 levels: the raw body case)
      return certain(setAt(value, site.path, nested(33 - levelOf(site.path) + 1 + extra)));
    }
    case 'open_json_number': {
      const site = choose(all.filter((s) => openObject(typeOf(s), s.value)));
      if (!site) return null;
      const bad = new RawNumber(pick(BAD_NUMBERS, v));
      put(site.value as Record<string, unknown>, 'n', v % 2 ? bad : [1, { deep: bad }]);
      return certain(value);
    }
    case 'proto_key': {
      const site = choose(all.filter((s) => isPlainObject(s.value)));
      if (!site) return null;
      put(site.value as Record<string, unknown>, '__proto__', clone(pick<unknown>([{ polluted: true }, 1, null, [], { toString: 1 }], v)));
      return certain(value);
    }
    case 'non_object': {
      const required = (root.required ?? []).length > 0;
      return certain(clone(pick(['x', 7, [], [{}], true, ...(required ? [null] : [])], v)));
    }
    case 'nonexistent_ref': {
      // An extension_id is the caller's name for a self-installed app, not a reference to a row: arming,
      // revoking, registering or removing under an unknown one is no violation (revoke/remove answer false).
      const refs = all.filter(
        (s) =>
          typeof s.value === 'string' &&
          typeof s.path[s.path.length - 1] === 'string' &&
          /_id$/.test(String(s.path[s.path.length - 1])) &&
          s.path[s.path.length - 1] !== 'extension_id',
      );
      const listed = all.filter(
        (s) => typeof s.value === 'string' && typeof s.path[s.path.length - 2] === 'string' && /_ids$/.test(String(s.path[s.path.length - 2])),
      );
      const site = choose([...refs, ...listed]);
      if (site) return { value: setAt(value, site.path, pick(missing, v)), certain: true, kinds: ['conflict', 'validation_failed'] };
      // A category under a parent that does not exist.
      if (isPlainObject(value) && typeof value.path === 'string') {
        value.path = `zz_missing_${v % 1000}.${value.path.split('.').pop()}`;
        return { value, certain: true, kinds: ['conflict', 'validation_failed'] };
      }
      return null;
    }
    case 'proto_value': {
      const site = choose(stringSites(all));
      return site ? { value: setAt(value, site.path, pick(PROTOTYPE_NAMES, v)), certain: false, kinds: [] } : null;
    }
    case 'proto_key_open': {
      const site = choose(all.filter((s) => openObject(typeOf(s), s.value)));
      if (!site) return null;
      put(site.value as Record<string, unknown>, pick(PROTOTYPE_NAMES.slice(1), v), pick(['x', 1, true], v >> 3));
      return { value, certain: false, kinds: [] };
    }
    case 'unicode': {
      const site = choose(stringSites(all).filter((s) => !typeOf(s)?.enum && !typeOf(s)?.pattern));
      return site ? { value: setAt(value, site.path, pick(ODD_TEXT, v)), certain: false, kinds: [] } : null;
    }
  }
}
