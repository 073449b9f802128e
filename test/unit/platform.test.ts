import { internalToken, signContext, verifyContext, type CallContext } from '../../platform/src/actor';
import { requestIdOf } from '../../platform/src/admission';
import { maskString } from '../../platform/src/personal';
import { PreparedTexts, preparedName } from '../../platform/src/db/sql';
import { assignments, conditions, sqlText } from '../../platform/src/db/where';
import { wholeAnswer } from '../../platform/src/graphql-sdl';
import { noneMatchHits } from '../../platform/src/prepared';
import { trustProxyOf } from '../../platform/src/subgraph-access';
import { decodeVaultKey } from '../../platform/src/vault-key';
import { t } from '../../platform/src/schema';
import { answerSchema, connectionOf, selectedConnectionOf } from '../../platform/src/connection';
import { resultProblem, validate } from '../../platform/src/validation';

/** Small platform rules alone, without the system. */
const SECRET = 'context-secret-of-at-least-some-length';
const context: CallContext = {
  actor: { tenant_id: 'ten_1', api_key_id: 'key_1', credential_id: 'cred_1', name: 'ops', scopes: ['order.read'], is_owner: false },
  request_id: 'req_1',
  client_address: '203.0.113.7',
};

describe('signed call contexts', () => {
  const now = 1_800_000_000_000;

  it('carries the actor, request id and client address for 60 seconds', () => {
    const header = signContext(SECRET, context, now);
    expect(header).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyContext(SECRET, header, now)).toEqual(context);
    expect(verifyContext(SECRET, header, now + 60_000)).toEqual(context);
    expect(verifyContext(SECRET, header, now + 60_001)).toBeNull();
    expect(verifyContext(SECRET, signContext(SECRET, { actor: null, request_id: 'req_2' }, now), now)).toEqual({ actor: null, request_id: 'req_2' });
  });

  it('refuses a missing, malformed, forged or re-signed context', () => {
    const header = signContext(SECRET, context, now);
    const [body, mac] = header.split('.');
    expect(verifyContext(SECRET, undefined, now)).toBeNull();
    expect(verifyContext(SECRET, '', now)).toBeNull();
    expect(verifyContext(SECRET, body, now)).toBeNull();
    expect(verifyContext(SECRET, `.${mac}`, now)).toBeNull();
    expect(verifyContext('another secret', header, now)).toBeNull();
    // Another actor in the body with the original signature.
    const forged = Buffer.from(JSON.stringify({ ...context, actor: { ...context.actor, is_owner: true }, exp: now + 60_000 })).toString('base64url');
    expect(verifyContext(SECRET, `${forged}.${mac}`, now)).toBeNull();
    expect(verifyContext(SECRET, `${body}.${mac.slice(0, -2)}`, now)).toBeNull();
  });

  it('derives the internal endpoints token from the secret, apart from the signing key', () => {
    expect(internalToken(SECRET)).toBe(internalToken(SECRET));
    expect(internalToken(SECRET)).not.toBe(internalToken(`${SECRET}x`));
    expect(internalToken(SECRET)).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('personal values masked', () => {
  it('keeps the domain of an email, nothing of other text', () => {
    expect(maskString('ana@example.com', 'email')).toBe('***@example.com');
    expect(maskString('"a@b"@example.com', 'email')).toBe('***@example.com');
    expect(maskString('not an email', 'email')).toBe('***');
    expect(maskString('ana@example.com')).toBe('***');
    expect(maskString('Rua A, 1')).toBe('***');
  });
});

describe('If-None-Match', () => {
  it('matches the tag weakly, in a list, or *', () => {
    expect(noneMatchHits('"v1"', '"v1"')).toBe(true);
    expect(noneMatchHits('W/"v1"', '"v1"')).toBe(true);
    expect(noneMatchHits('"v1"', 'W/"v1"')).toBe(true);
    expect(noneMatchHits('"v0", W/"v1" ,"v2"', '"v1"')).toBe(true);
    expect(noneMatchHits('*', '"v1"')).toBe(true);
    expect(noneMatchHits('"v2"', '"v1"')).toBe(false);
    expect(noneMatchHits('v1', '"v1"')).toBe(false);
    expect(noneMatchHits('', '"v1"')).toBe(false);
    expect(noneMatchHits(undefined, '"v1"')).toBe(false);
  });
});

describe('request ids', () => {
  it('keeps a caller-sent id of 1 to 64 safe characters, else makes one', () => {
    expect(requestIdOf('abc-123_x.y')).toBe('abc-123_x.y');
    expect(requestIdOf('a'.repeat(64))).toBe('a'.repeat(64));
    for (const bad of [undefined, '', 'a'.repeat(65), 'has space', 'line\nbreak', 'ünï', ['a', 'b']]) {
      expect(requestIdOf(bad)).toMatch(/^req_[0-9A-HJKMNP-TV-Z]{26}$/);
    }
  });
});

describe('TRUST_PROXY', () => {
  it('believes only the socket unless routers are named; 1 or true names private networks', () => {
    for (const off of [undefined, '', '  ', '0', 'false', 'FALSE']) expect(trustProxyOf(off)).toBe(false);
    for (const on of ['1', 'true', ' True ']) expect(trustProxyOf(on)).toBe('loopback,linklocal,uniquelocal');
    expect(trustProxyOf(' 10.0.0.0/8,192.168.1.1 ')).toBe('10.0.0.0/8,192.168.1.1');
  });
});

describe('VAULT_KEY', () => {
  const key = Buffer.from(Array.from({ length: 32 }, (_, i) => i * 8 + 3));

  it('takes 32 bytes in base64 or base64url, padded or not', () => {
    expect(decodeVaultKey(key.toString('base64'))).toEqual(key);
    expect(decodeVaultKey(key.toString('base64').replace(/=+$/, ''))).toEqual(key);
    expect(decodeVaultKey(key.toString('base64url'))).toEqual(key);
  });

  it('refuses another length or other characters', () => {
    expect(decodeVaultKey(key.subarray(0, 31).toString('base64'))).toBeNull();
    expect(decodeVaultKey(Buffer.concat([key, Buffer.from([1])]).toString('base64'))).toBeNull();
    expect(decodeVaultKey(key.toString('hex'))).toBeNull();
    expect(decodeVaultKey(` ${key.toString('base64')}`)).toBeNull();
    expect(decodeVaultKey('')).toBeNull();
  });
});

describe('prepared texts within a budget', () => {
  it('names the first texts, the same name each time, and none past the budget', () => {
    const texts = new PreparedTexts(2);
    expect(texts.name('SELECT 1')).toBe(preparedName('SELECT 1'));
    expect(texts.name('SELECT 2')).toBe(preparedName('SELECT 2'));
    expect(texts.name('SELECT 3')).toBeUndefined();
    expect(texts.name('SELECT 1')).toBe(preparedName('SELECT 1'));
  });
});

describe('conditions and their values', () => {
  it('numbers each value as it is added, after the values the statement has, and joins the parts', () => {
    const where = conditions(['sto_1']).add`o.tenant_id = ${'ten_1'}`.add`o.status IN (${'paid'}, ${'shipped'})`;
    expect(where.sql).toBe('o.tenant_id = $2 AND o.status IN ($3, $4)');
    expect(where.params).toEqual(['sto_1', 'ten_1', 'paid', 'shipped']);
    expect(`LIMIT ${where.param(25)}`).toBe('LIMIT $5');
    expect(assignments().add`name = ${'a'}`.add`updated_at = now()`.sql).toBe('name = $1, updated_at = now()');
  });

  it('writes a placeholder given before, and SQL text, as they are', () => {
    const where = conditions();
    const like = where.param('%shoe%');
    where.add`(p.title ILIKE ${like} OR p.handle ILIKE ${like})`.add`${sqlText('p.archived_at IS NULL')}`;
    expect(where.sql).toBe('(p.title ILIKE $1 OR p.handle ILIKE $1) AND p.archived_at IS NULL');
    expect(where.params).toEqual(['%shoe%']);
  });

  it('gives one text per shape, whatever the values', () => {
    const shape = (status: unknown) => conditions().add`o.status = ${status}`.sql;
    expect(shape("paid' OR true --")).toBe(shape('$1'));
    expect(shape(null)).toBe('o.status = $1');
  });
});

describe('formats of input and of results', () => {
  const schema = t.object({ at: t.timestamp() });

  it('refuses a date that does not exist in input', () => {
    expect(() => validate(schema, { at: '2026-02-30T10:00:00.000Z' })).toThrow(/at must match format "date-time"/);
    expect(validate(schema, { at: '2026-02-28T10:00:00.000Z' })).toEqual({ at: '2026-02-28T10:00:00.000Z' });
  });

  it('still finds a result whose timestamp is not one', () => {
    expect(resultProblem(schema, { at: '2026-02-28T10:00:00.000Z' })).toBeNull();
    expect(resultProblem(schema, { at: 'yesterday' })).toMatch(/at must match format "date-time"/);
    expect(resultProblem(schema, { at: '2026-02-28' })).toMatch(/at must match format "date-time"/);
  });
});

describe('a connection handler’s answer', () => {
  const node = t.entity('Thing', { thing_id: t.string(), amount: t.integer(), at: t.timestamp() }, 'thing_id');
  const page = (nodes: unknown[]) => ({
    edges: nodes.map((n, k) => ({ cursor: `c${k}`, node: n })),
    pageInfo: { hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null },
    totalCount: null,
  });

  it('of a list reading what its page selects may lack node fields, each present one still checked', () => {
    const selected = answerSchema(selectedConnectionOf(node, 'Thing'));
    expect(resultProblem(selected, page([{ thing_id: 'a' }]))).toBeNull();
    expect(resultProblem(selected, page([{ thing_id: 'a', amount: 'ten' }]))).toMatch(/amount must be integer/);
    expect(resultProblem(selected, page([{ at: 'yesterday' }]))).toMatch(/at must match format "date-time"/);
    expect(resultProblem(selected, page([{ thing_id: 'a', extra: 1 }]))).toMatch(/extra is not a known field/);
    expect(resultProblem(selected, { edges: [] })).toMatch(/pageInfo is required/);
  });

  it('of any other list is checked whole', () => {
    const whole = connectionOf(node, 'Thing');
    expect(answerSchema(whole)).toBe(whole);
    expect(resultProblem(answerSchema(whole), page([{ thing_id: 'a' }]))).toMatch(/amount is required/);
  });
});

describe('a result as the REST shim sends it (wholeAnswer)', () => {
  const result = t.openObject({
    id: t.string(),
    note: t.optional(t.nullable(t.string())),
    url: t.optional(t.string()),
    items: t.array(t.object({ kind: t.string(), alt: t.nullable(t.string()) }), { maxItems: 10 }),
    metadata: t.record(),
  });

  it('keeps the declared fields only (of an open result too), as GraphQL answers its whole selection', () => {
    const answer = wholeAnswer(result, { id: 'a', extra: 1, items: [{ kind: 'image', alt: 'x', hidden: true }], metadata: { any: { thing: 1 } } });
    expect(answer).toEqual({ id: 'a', note: null, items: [{ kind: 'image', alt: 'x' }], metadata: { any: { thing: 1 } } });
  });

  it('answers an absent field null where it may be null, and leaves it out where it may not', () => {
    expect(wholeAnswer(result, { id: 'a', url: null, items: [{ kind: 'k' }], metadata: {} })).toEqual({
      id: 'a',
      note: null,
      items: [{ kind: 'k', alt: null }],
      metadata: {},
    });
  });
});
