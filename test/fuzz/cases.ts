/**
 * Cases generated from the operation declarations: for every operation on every surface it has, a
 * valid-shaped input broken by mutations, sent with the owner's key, none, or a bad one. A case says
 * what may answer it: the kinds its certain violation allows, and whether success is possible at all.
 */
import fc from 'fast-check';
import { errorKinds, fieldName, operationDocument, selectionOf, type ErrorKind, type Operation } from '@backoffice/platform';
import { OPERATIONS, SURFACE_OPERATIONS } from '../../gateway/src/subgraphs';
import { literalExpressible, needsRawText, nested, toGraphqlLiteral, toJsonText, PROTOTYPE_NAMES } from './json-text';
import { applyMutation, CERTAIN, DECORATIONS, type MutationKind, type MutationSpec } from './mutate';
import { mutateQuery, QUERY_MUTATIONS, queryString, toPairs, type QueryMutation } from './query';
import type { Request, Surface } from './surfaces';
import { fixup, validArb, type Pool, type Schema } from './valid';

export type Token = 'owner' | 'none' | 'bad';

export interface FuzzCase {
  surface: Surface;
  op: string;
  token: Token;
  labels: string[];
  request: Request;
  /** Kinds a certain violation allows (null: any the operation lists), and whether success may answer. */
  expect: { kinds: ErrorKind[] | null; ok: boolean };
  /** What the operation may answer at all on this surface: its kinds, rate_limited, and documented surface refusals. */
  listed: string[];
  /** A command: it must change nothing. */
  command: boolean;
}

interface Target {
  name: string;
  kind: 'command' | 'read';
  access: 'public' | 'internal';
  input: Schema;
  restPath?: string;
  merged: boolean;
  operation?: Operation;
  kinds: readonly ErrorKind[];
}

const asTarget = (op: Operation): Target => ({
  name: op.name,
  kind: op.kind,
  access: op.access,
  input: op.input as unknown as Schema,
  restPath: op.restPath,
  merged: false,
  operation: op,
  kinds: errorKinds(op),
});

/** GraphQL has every operation (the per-subgraph audit and event reads too); REST and MCP their surface list. */
// An admin connection takes its arguments (`first`, `after`…), not one `input`: test/connections.test.ts refuses its bad ones.
export const GRAPHQL_TARGETS = [...OPERATIONS.values()].filter((r) => !r.operation.connection).map((r) => asTarget(r.operation));
export const SURFACE_TARGETS: Target[] = [...SURFACE_OPERATIONS.values()].map((s) =>
  s.kind === 'operation'
    ? asTarget(s.operation)
    : {
        name: s.name,
        kind: 'read',
        access: 'internal',
        input: s.read.input as unknown as Schema,
        restPath: s.read.restPath,
        merged: true,
        kinds: errorKinds({ kind: 'read', access: 'internal', scope: s.read.scope }),
      },
);

const VALIDATION: ErrorKind[] = ['validation_failed'];
const CERTAIN_SET = new Set<MutationKind>(CERTAIN);
const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];

function expectFor(t: Target, token: Token, surface: Surface, certainKinds: ErrorKind[] | null): FuzzCase['expect'] {
  // The credential is judged before the input (REST, MCP); GraphQL validates variables first.
  const tokenRefused = (token === 'none' && t.access === 'internal') || (token === 'bad' && (surface !== 'rest' || t.access === 'internal'));
  if (tokenRefused) return { kinds: union(['unauthorized'], certainKinds ? VALIDATION : []) as ErrorKind[], ok: false };
  return { kinds: certainKinds, ok: certainKinds === null };
}

function listedFor(t: Target, token: Token, surface: Surface): string[] {
  const listed = [...t.kinds, 'rate_limited'];
  // Documented: GraphQL authenticates a presented key before knowing the fields; MCP before any message.
  if (token === 'bad') listed.push('unauthorized');
  if (surface === 'mcp') listed.push('jsonrpc_error');
  return listed;
}

const mutationSpec = (kinds: readonly MutationKind[]) =>
  fc.record({ kind: fc.constantFrom(...kinds), site: fc.nat(), variant: fc.nat() }) as fc.Arbitrary<MutationSpec>;
const tokenArb = fc.constantFrom<Token>('owner', 'owner', 'owner', 'owner', 'none', 'bad');

/** A mutated JSON input: commands always end with a certain violation, reads may end valid-shaped. */
function jsonInput(t: Target, pool: Pool) {
  const certain = t.kind === 'command' ? [...CERTAIN, ...CERTAIN.filter((k) => k !== 'non_object'), 'nonexistent_ref' as const] : [...CERTAIN];
  return fc
    .record({
      valid: validArb(t.input, pool),
      pre: fc.array(mutationSpec([...CERTAIN, ...DECORATIONS, ...DECORATIONS]), { maxLength: 2 }),
      last: t.kind === 'command' ? mutationSpec(certain) : fc.option(mutationSpec(certain), { freq: 4 }),
    })
    .map(({ valid, pre, last }) => {
      let value: unknown = fixup(t.name, valid as Record<string, unknown>);
      const labels: string[] = [];
      let kinds = null as ErrorKind[] | null;
      // Decorations first: one applied after a violation could rewrite the very value that broke the rule.
      const ordered = [...pre].sort((a, b) => Number(CERTAIN_SET.has(a.kind)) - Number(CERTAIN_SET.has(b.kind)));
      const steps = last ? [...ordered, last] : ordered;
      for (const [i, spec] of steps.entries()) {
        let applied = applyMutation(value, t.input, spec, pool.missing);
        let kind = spec.kind;
        // The closing violation must land: fall back to the ones that always apply somewhere.
        for (const fallback of ['unknown_field', 'non_object'] as const) {
          if (applied || !last || i !== steps.length - 1) break;
          kind = fallback;
          applied = applyMutation(value, t.input, { ...spec, kind }, pool.missing);
        }
        if (!applied) continue;
        value = applied.value;
        labels.push(kind);
        // The last violation surely holds (an earlier one may have been overwritten): a schema one decides
        // the kind, as the schema is checked first; else any kind the violations allow together.
        if (applied.certain) kinds = applied.kinds.length === 1 ? applied.kinds : (union(kinds ?? [], applied.kinds) as ErrorKind[]);
      }
      return { value, labels: labels.length ? labels : ['valid_shaped'], kinds };
    });
}

function restCommand(t: Target, pool: Pool): fc.Arbitrary<FuzzCase> {
  return fc.tuple(jsonInput(t, pool), tokenArb).map(([input, token]) => ({
    surface: 'rest' as const,
    op: t.name,
    token,
    labels: input.labels,
    request: { via: 'http' as const, method: 'POST' as const, path: `/v1/commands/${t.name}`, body: toJsonText(input.value) },
    expect: expectFor(t, token, 'rest', input.kinds),
    listed: listedFor(t, token, 'rest'),
    command: true,
  }));
}

/** Whole bodies that are not an input at all: malformed JSON, wrong media type, past the size or nesting bound. */
const BAD_BODIES: Array<{ label: string; body: string; contentType?: string | null }> = [
  { label: 'body_truncated', body: '{"name":' },
  { label: 'body_not_json', body: 'not json' },
  { label: 'body_empty', body: '' },
  { label: 'body_trailing', body: '{"x":1}x' },
  { label: 'body_bom', body: '\ufeff{"x":1}' },
  { label: 'body_text_plain', body: '{"x":1}', contentType: 'text/plain' },
  { label: 'body_no_type', body: '{"x":1}', contentType: null },
  { label: 'body_nested_41', body: toJsonText({ x: nested(41) }) },
  { label: 'body_nested_5000', body: '['.repeat(5000) + ']'.repeat(5000) },
  { label: 'body_over_1mib', body: JSON.stringify({ name: 'x'.repeat(1_100_000) }) },
  { label: 'body_proto', body: '{"__proto__":{"polluted":true},"name":"x"}' },
  { label: 'body_array', body: '[{"name":"x"}]' },
  { label: 'body_null', body: 'null' },
  { label: 'body_number', body: '12345678901234567890' },
];

function restBadBody(t: Target): fc.Arbitrary<FuzzCase> {
  return fc.tuple(fc.constantFrom(...BAD_BODIES), tokenArb).map(([bad, token]) => ({
    surface: 'rest' as const,
    op: t.name,
    token,
    labels: [bad.label],
    request: { via: 'http' as const, method: 'POST' as const, path: `/v1/commands/${t.name}`, body: bad.body, contentType: bad.contentType },
    expect: { kinds: token === 'owner' ? VALIDATION : (['validation_failed', 'unauthorized'] as ErrorKind[]), ok: false },
    listed: listedFor(t, token, 'rest'),
    command: true,
  }));
}

function restRead(t: Target, pool: Pool): fc.Arbitrary<FuzzCase> {
  const mutation = fc.record({ kind: fc.constantFrom<QueryMutation>(...QUERY_MUTATIONS), n: fc.nat() });
  return fc.tuple(validArb(t.input, pool), fc.array(mutation, { maxLength: 3 }), tokenArb).map(([valid, mutations, token]) => {
    const input = fixup(t.name, valid as Record<string, unknown>);
    const q = mutateQuery(toPairs(input), t.input, t.merged, mutations, pool.missing);
    const qs = queryString(q.pairs);
    return {
      surface: 'rest' as const,
      op: t.name,
      token,
      labels: q.labels.length ? q.labels : ['valid_shaped'],
      request: { via: 'http' as const, method: 'GET' as const, path: `/v1/read${t.restPath}${qs ? `?${qs}` : ''}` },
      expect: expectFor(t, token, 'rest', q.kinds),
      listed: listedFor(t, token, 'rest'),
      command: false,
    };
  });
}

const INLINE_DEPTH = 42;

/** Levels of objects and arrays (a scalar is 0). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(v as object).map(depthOf));
}

/** A GraphQL document with the input inline as a literal (the REST shim's document takes `$input`). */
function inlineDocument(op: Operation, value: unknown): string {
  const hasInput = !(typeof value === 'object' && value && !Array.isArray(value) && !Object.keys(value).length);
  const args = hasInput ? `(input: ${toGraphqlLiteral(value)})` : '';
  return `${op.kind === 'command' ? 'mutation' : 'query'} { ${fieldName(op.name)}${args}${selectionOf(op.result)} }`;
}

function graphql(t: Target, pool: Pool): fc.Arbitrary<FuzzCase> {
  const op = t.operation!;
  const noInput = !Object.keys(t.input.properties ?? {}).length;
  return fc.tuple(jsonInput(t, pool), tokenArb, fc.nat(3)).map(([input, token, mode]) => {
    // Inline literals for a quarter of the cases. Not deeper than INLINE_DEPTH: Apollo's query planner
    // walks nested list literals in exponential time (collectVariablesInValue), so a deeper one would
    // stall this very process (the gateway runs in it) instead of failing one case; at 40 levels it is
    // already seconds, and it grows exponentially: the harness reports a stall.
    const inline = literalExpressible(input.value) && depthOf(input.value) <= INLINE_DEPTH && (noInput || mode === 0);
    // An input-less field takes no $input: declared and unused, it is a request error (a certain refusal).
    const document = noInput
      ? `${op.kind === 'command' ? 'mutation' : 'query'} Fuzz($input: JSON) { ${fieldName(op.name)}${selectionOf(op.result)} }`
      : operationDocument(op);
    const body = inline
      ? `{"query":${JSON.stringify(inlineDocument(op, input.value))}}`
      : `{"query":${JSON.stringify(document)},"variables":{"input":${toJsonText(input.value)}}}`;
    return {
      surface: 'graphql' as const,
      op: t.name,
      token,
      labels: [...input.labels, inline ? 'inline' : 'variables'],
      request: { via: 'http' as const, method: 'POST' as const, path: '/graphql', body, field: fieldName(op.name) },
      expect: expectFor(t, token, 'graphql', input.kinds),
      listed: listedFor(t, token, 'graphql'),
      command: t.kind === 'command',
    };
  });
}

const rpc = (name: string, args: string, id = '1') =>
  `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":${JSON.stringify(name)},"arguments":${args}}}`;

function mcp(t: Target, pool: Pool): fc.Arbitrary<FuzzCase> {
  return fc.tuple(jsonInput(t, pool), tokenArb, fc.boolean()).map(([input, token, preferRaw]) => {
    const value = input.value;
    // Raw JSON-RPC for what the SDK client cannot send (raw numbers, `__proto__`, non-objects, > 1 MiB) and a bad key.
    const objectArgs = typeof value === 'object' && value !== null && !Array.isArray(value);
    const text = toJsonText(value);
    const raw = token === 'bad' || !objectArgs || needsRawText(value) || text.length > 900_000 || preferRaw;
    const request: Request = raw
      ? { via: 'http', method: 'POST', path: '/mcp', body: rpc(t.name, text) }
      : { via: 'mcp-client', tool: t.name, args: value as Record<string, unknown> };
    const expect = expectFor(t, token, 'mcp', input.kinds);
    // Arguments that are not an object break the tools/call envelope: a JSON-RPC error is the protocol's answer.
    if (!objectArgs) expect.kinds = [...(expect.kinds ?? []), 'jsonrpc_error' as ErrorKind];
    return {
      surface: 'mcp' as const,
      op: t.name,
      token,
      labels: [...input.labels, raw ? 'raw' : 'client'],
      request,
      expect,
      listed: listedFor(t, token, 'mcp'),
      command: t.kind === 'command',
    };
  });
}

/** Names that are no route, and broken JSON-RPC envelopes: refused before any operation. */
function routesAndEnvelopes(): fc.Arbitrary<FuzzCase> {
  const names = [...PROTOTYPE_NAMES, 'no.such.command', 'iam.api_key.create%00', 'x'.repeat(101), '..%2f..%2fhealthz'];
  const route = fc.tuple(fc.constantFrom(...names), fc.boolean(), tokenArb).map(
    ([name, read, token]): FuzzCase => ({
      surface: 'rest',
      op: '(route)',
      token,
      labels: [read ? 'unknown_read' : 'unknown_command'],
      request: read ? { via: 'http', method: 'GET', path: `/v1/read/${name}` } : { via: 'http', method: 'POST', path: `/v1/commands/${name}`, body: '{}' },
      expect: { kinds: ['not_found', 'validation_failed', 'unauthorized'], ok: false },
      listed: ['not_found', 'validation_failed', 'unauthorized', 'rate_limited'],
      command: true,
    }),
  );
  const list = (id: number) => `{"jsonrpc":"2.0","id":${id},"method":"tools/list"}`;
  const envelopes: Array<[string, string]> = [
    ['tool_proto_name', rpc(PROTOTYPE_NAMES[1], '{}')],
    ['tool_proto_name', rpc('__proto__', '{}')],
    ['tool_proto_name', rpc('toString', '{}')],
    ['tool_nul_name', rpc('iam.api_key.create\u0000', '{}')],
    ['rpc_unknown_method', '{"jsonrpc":"2.0","id":1,"method":"tools/bogus"}'],
    ['rpc_bad_version', '{"jsonrpc":"1.0","id":1,"method":"tools/list"}'],
    ['rpc_params_string', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":"x"}'],
    ['rpc_no_name', '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"arguments":{}}}'],
    ['rpc_id_object', '{"jsonrpc":"2.0","id":{"a":1},"method":"tools/list"}'],
    ['rpc_id_huge', '{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}'],
    ['rpc_batch_empty', '[]'],
    ['rpc_batch_11', `[${Array.from({ length: 11 }, (_, i) => list(i)).join(',')}]`],
    ['rpc_batch_mixed', `[${list(1)},"x",${rpc('constructor', '{}', '2')}]`],
    ['rpc_not_json', '{"jsonrpc":'],
    ['rpc_nested', `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${toJsonText(nested(45))}}`],
    ['rpc_proto', '{"jsonrpc":"2.0","id":1,"method":"tools/list","__proto__":{"x":1}}'],
    ['rpc_notification_only', '{"jsonrpc":"2.0","method":"notifications/initialized"}'],
  ];
  const envelope = fc.tuple(fc.constantFrom(...envelopes), tokenArb).map(
    ([[label, body], token]): FuzzCase => ({
      surface: 'mcp',
      op: '(envelope)',
      token,
      labels: [label],
      request: { via: 'http', method: 'POST', path: '/mcp', body },
      expect: { kinds: null, ok: token !== 'bad' },
      listed: ['validation_failed', 'not_found', 'unauthorized', 'rate_limited', 'jsonrpc_error'],
      command: true,
    }),
  );
  return fc.oneof(route, envelope);
}

/** Every case the fuzz may draw; weights keep the surfaces near a third each. */
export function caseArbitrary(pool: Pool): fc.Arbitrary<FuzzCase> {
  const commands = SURFACE_TARGETS.filter((t) => t.kind === 'command');
  const reads = SURFACE_TARGETS.filter((t) => t.kind === 'read');
  return fc.oneof(
    { weight: 4, arbitrary: fc.oneof(...commands.map((t) => restCommand(t, pool))) },
    { weight: 1, arbitrary: fc.oneof(...commands.map((t) => restBadBody(t))) },
    { weight: 3, arbitrary: fc.oneof(...reads.map((t) => restRead(t, pool))) },
    { weight: 8, arbitrary: fc.oneof(...GRAPHQL_TARGETS.map((t) => graphql(t, pool))) },
    { weight: 7, arbitrary: fc.oneof(...SURFACE_TARGETS.map((t) => mcp(t, pool))) },
    { weight: 1, arbitrary: routesAndEnvelopes() },
  );
}
