/**
 * REST reads take a query string, where every value is text: mutations there are of their own
 * (`%00`, repeated parameters, `option.<name>` names, numbers spelled oddly, a URL over 16 KiB).
 */
import type { ErrorKind } from '@backoffice/platform';
import { PROTOTYPE_NAMES } from './json-text';
import type { Schema } from './valid';

/** [name, value] already percent-encoded, so a case may hold escapes no encoder would write. */
export type Pair = [string, string];

export const QUERY_MUTATIONS = [
  'q_int',
  'q_enum',
  'q_pattern',
  'q_length',
  'q_huge',
  'q_nul',
  'q_repeat',
  'q_missing',
  'q_unknown',
  'q_too_many',
  'q_price_order',
  'q_merged_depth',
  'q_projection',
  'q_store_missing',
  'q_proto_names',
  'q_bad_utf8',
  'q_int_odd',
] as const;
export type QueryMutation = (typeof QUERY_MUTATIONS)[number];

/** Percent-encoding that writes a lone surrogate as the (invalid) UTF-8 of its code unit instead of throwing. */
export function enc(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    out +=
      code >= 0xd800 && code <= 0xdfff
        ? [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63)].map((b) => `%${b.toString(16).toUpperCase()}`).join('')
        : encodeURIComponent(ch);
  }
  return out;
}

/** The query string of a valid-shaped input, the inverse of the platform's `queryInput`. */
export function toPairs(input: Record<string, unknown>): Pair[] {
  const pairs: Pair[] = [];
  for (const [key, value] of Object.entries(input)) {
    if (key === 'options' || key === 'custom_fields') {
      const prefix = key === 'options' ? 'option.' : 'cf.';
      for (const { name, value: v } of value as Array<{ name: string; value: string }>) pairs.push([enc(prefix + name), enc(v)]);
    } else if (key === 'lines') {
      // The quote's items as a family (`line.<sku_id>=<qty>`).
      for (const { sku_id, qty } of value as Array<{ sku_id: string; qty: number }>) pairs.push([enc(`line.${sku_id}`), enc(String(qty))]);
    } else if (key === 'facets') {
      if ((value as string[]).length) pairs.push(['facets', enc((value as string[]).join(','))]);
    } else pairs.push([enc(key), enc(String(value))]);
  }
  return pairs;
}

export interface QueryOutcome {
  pairs: Pair[];
  /** Kinds a certain violation allows, by priority: schema, then projection, then an unknown store. */
  kinds: ErrorKind[] | null;
  labels: string[];
}

const pick = <T>(list: readonly T[], n: number): T => list[n % list.length];
const UNCERTAIN = new Set<QueryMutation>(['q_int_odd', 'q_proto_names', 'q_bad_utf8', 'q_projection', 'q_store_missing', 'q_unknown', 'q_price_order']);

/** Applies query mutations in order (one that has no place here is skipped) and says what may answer. */
export function mutateQuery(
  pairs: Pair[],
  schema: Schema,
  merged: boolean,
  mutations: Array<{ kind: QueryMutation; n: number }>,
  missingStores: readonly string[],
): QueryOutcome {
  const props = schema.properties ?? {};
  // read.products (its option./cf. parameters, projection, price order); other reads by `store` (read.pages) are plain.
  const isProducts = 'store' in props && 'projection' in props;
  const labels: string[] = [];
  let schemaWrong = false;
  let projectionWrong = false;
  let storeMissing = false;
  let semanticWrong = false;
  const set = (name: string, value: string) => {
    const i = pairs.findIndex(([k]) => k === name);
    if (i >= 0) pairs[i] = [name, value];
    else pairs.push([name, value]);
  };
  // Those that may leave the input valid go first, so that none undoes a certain one by rewriting its parameter.
  const ordered = [...mutations].sort((a, b) => Number(!UNCERTAIN.has(a.kind)) - Number(!UNCERTAIN.has(b.kind)));
  for (const { kind, n } of ordered) {
    let certainSchema = true;
    switch (kind) {
      case 'q_int': {
        const field = pick(
          Object.keys(props).filter((k) => props[k].type === 'integer'),
          n,
        );
        if (!field) continue;
        const s = props[field];
        const bad = ['-1', '1.5', 'abc', '1e400', '12345678901234567890', '9007199254740992', 'NaN', '1,2'];
        if ((s.minimum ?? 0) >= 1) bad.push('0', '');
        if (s.maximum !== undefined && s.maximum < 1e6) bad.push(String(s.maximum + 1));
        set(field, enc(pick(bad, n >> 3)));
        break;
      }
      case 'q_int_odd': {
        const field = pick(
          Object.keys(props).filter((k) => props[k].type === 'integer'),
          n,
        );
        if (!field) continue;
        set(field, enc(pick(['0x10', ' 5', '+5', '05', '5.0', '5e0'], n >> 3)));
        certainSchema = false;
        break;
      }
      case 'q_enum': {
        const field = pick(
          Object.keys(props).filter((k) => props[k].enum || props[k].items?.enum),
          n,
        );
        if (!field) continue;
        set(field, enc(pick(['bogus', ...PROTOTYPE_NAMES, 'NEWEST', 'active '], n >> 3)));
        break;
      }
      case 'q_pattern': {
        const field = pick(
          Object.keys(props).filter((k) => props[k].pattern),
          n,
        );
        if (!field) continue;
        set(field, enc(pick(['a..b', 'Bad Cat', 'a.', '.a', 'a-b', '__proto__.x.'], n >> 3)));
        break;
      }
      case 'q_length': {
        const fields = Object.keys(props).filter((k) => props[k].type === 'string' && !props[k].enum);
        const options = isProducts ? [...fields, 'option', 'cf'] : fields;
        const field = pick(options, n);
        if (!field) continue;
        const tooLong = n % 2 === 0;
        const limit = field === 'option' || field === 'cf' ? (tooLong && n % 4 === 0 ? 100 : 500) : (props[field].maxLength ?? 200);
        const text = tooLong ? 'x'.repeat(limit + 1) : '';
        if (field === 'option' || field === 'cf') {
          const nameTooLong = limit === 100;
          pairs.push(nameTooLong ? [`${field}.${text}`, 'x'] : [`${field}.color`, text]);
        } else set(field, text);
        break;
      }
      case 'q_huge':
        // Past the 16 KiB of request line and headers: refused by the HTTP server (431/414) with the body.
        pairs.push([pick(['huge', 'store', 'q', 'option.color'], n), 'x'.repeat(pick([17_000, 40_000, 100_000], n >> 2))]);
        break;
      case 'q_nul': {
        if (!pairs.length) continue;
        const i = n % pairs.length;
        const [k, val] = pairs[i];
        // After a malformed escape the value is not decoded at all: `%00` would stay three characters, not a NUL.
        if (/%(?![0-9A-Fa-f]{2})/.test(k + val)) continue;
        // Nor after escapes that are not UTF-8 (q_bad_utf8): the value then stays as sent, `%00` included.
        try {
          decodeURIComponent(k + val);
        } catch {
          continue;
        }
        pairs[i] = n % 3 === 0 && (k.startsWith('option.') || k.startsWith('cf.')) ? [`${k}%00x`, val] : [k, `${val}%00`];
        break;
      }
      case 'q_repeat': {
        const scalars = pairs.filter(([k]) => props[k] && props[k].type !== 'array');
        if (!scalars.length) continue;
        const [k, val] = pick(scalars, n);
        pairs.push([k, val]);
        break;
      }
      case 'q_missing': {
        const required = (schema.required ?? []).filter((k) => pairs.some(([p]) => p === k));
        if (!required.length) continue;
        const name = pick(required, n);
        pairs.splice(0, pairs.length, ...pairs.filter(([k]) => k !== name));
        break;
      }
      case 'q_unknown': {
        const name = pick(['extra', ...PROTOTYPE_NAMES, 'Limit', 'limit[]', '__proto__[x]'], n);
        pairs.push([enc(name), '1']);
        certainSchema = !isProducts; // read.products accepts extra parameters (the reference); other reads refuse them
        break;
      }
      case 'q_too_many':
        if (!isProducts) continue;
        for (let i = 0; i < 21; i++) pairs.push([`option.o${i}`, 'v']);
        break;
      case 'q_price_order':
        // A rule of the handler, not the schema: judged after the projection and beside the store lookup.
        if (!isProducts) continue;
        set('price_min', '10');
        set('price_max', '5');
        semanticWrong = true;
        certainSchema = false;
        break;
      case 'q_merged_depth':
        if (!merged) continue;
        set('limit', '100');
        set('page', String(11 + (n % 1000)));
        break;
      case 'q_projection':
        if (!isProducts) continue;
        set('projection', enc(pick([...PROTOTYPE_NAMES, 'bogus', 'FEED', 'full ', 'items'], n)));
        projectionWrong = true;
        certainSchema = false;
        break;
      case 'q_store_missing':
        if (!isProducts) continue;
        set('store', enc(pick(missingStores, n)));
        storeMissing = true;
        certainSchema = false;
        break;
      case 'q_proto_names': {
        const name = pick(PROTOTYPE_NAMES, n);
        const where = isProducts
          ? pick([`option.${name}`, `cf.${name}`, 'collection', 'option.color'], n >> 3)
          : pick(
              Object.keys(props).filter((k) => props[k].type === 'string' && !props[k].enum),
              n >> 3,
            );
        if (!where) continue;
        pairs.push([enc(where), enc(where.endsWith(name) ? 'x' : name)]);
        certainSchema = false;
        break;
      }
      case 'q_bad_utf8': {
        if (!pairs.length) continue;
        const i = n % pairs.length;
        pairs[i] = [pairs[i][0], pairs[i][1] + pick(['%ED%A0%80', '%FF', '%C0%80', '%zz', '%', '%E2%82'], n >> 3)];
        certainSchema = false;
        break;
      }
    }
    labels.push(kind);
    schemaWrong ||= certainSchema;
  }
  let uncertain = false;
  for (const { kind } of ordered) uncertain ||= labels.includes(kind) && ['q_int_odd', 'q_proto_names', 'q_bad_utf8'].includes(kind);
  const kinds: ErrorKind[] | null = schemaWrong
    ? ['validation_failed']
    : projectionWrong
      ? ['unknown_projection']
      : semanticWrong
        ? ['validation_failed', 'not_found']
        : storeMissing
          ? ['not_found']
          : null;
  // Odd spellings may break a rule too (`%FF` in an enum value): then a schema refusal is right as well.
  return { pairs, kinds: kinds && uncertain && !kinds.includes('validation_failed') ? [...kinds, 'validation_failed'] : kinds, labels };
}

export function queryString(pairs: Pair[]): string {
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}
