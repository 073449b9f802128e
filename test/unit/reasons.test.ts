import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppError, conflict, fromExtensions, validationFailed } from '../../platform/src/errors';
import { REASONS, SHIPPING_REFUSALS } from '../../platform/src/reasons';
import { defineStateMachine } from '../../platform/src/state-machine';
import { t } from '../../platform/src/schema';
import { fieldPath, validate } from '../../platform/src/validation';
import { REFUSAL_REASONS } from '../../subgraphs/orders/src/domain/shipping';

/** The reasons of refusals: a closed list, documented, carried to GraphQL only. */
const refusedBy = (run: () => unknown): AppError => {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error('not refused');
};

describe('the list of reasons', () => {
  it('is documented, each in the table of docs/admin-graphql.md', () => {
    const doc = readFileSync(join(__dirname, '../../docs/admin-graphql.md'), 'utf8');
    const table = doc.slice(doc.indexOf('| reason | kinds | example |'));
    for (const reason of Object.keys(REASONS)) expect([reason, table.includes(`\`${reason}\``)]).toEqual([reason, true]);
  });

  it("holds every reason a shipping method refuses with: order.create's REST body carries them", () => {
    expect([...SHIPPING_REFUSALS].sort()).toEqual([...REFUSAL_REASONS].sort());
    for (const reason of SHIPPING_REFUSALS) expect(Object.hasOwn(REASONS, reason)).toBe(true);
  });
});

describe('schema refusals', () => {
  const schema = t.object({
    title: t.string({ maxLength: 5 }),
    items: t.array(t.object({ sku_id: t.string({ pattern: '^sku_' }), qty: t.integer({ minimum: 1 }) }), { minItems: 1 }),
  });
  const refusal = (value: unknown) => {
    const error = refusedBy(() => validate(schema, value));
    return { kind: error.kind, reason: error.reason, field: error.field };
  };

  it('name the first violation’s reason and its path in the input', () => {
    expect(refusal({ title: 'far too long', items: [{ sku_id: 'sku_1', qty: 1 }] })).toEqual({ kind: 'validation_failed', reason: 'too_long', field: 'title' });
    expect(
      refusal({
        title: 'ok',
        items: [
          { sku_id: 'sku_1', qty: 1 },
          { sku_id: 'x', qty: 1 },
        ],
      }),
    ).toMatchObject({ reason: 'pattern', field: 'items[1].sku_id' });
    expect(refusal({ title: 'ok', items: [{ sku_id: 'sku_1', qty: 0 }] })).toMatchObject({ reason: 'out_of_range', field: 'items[0].qty' });
    expect(refusal({ title: 'ok', items: [] })).toMatchObject({ reason: 'too_short', field: 'items' });
    expect(refusal({ title: 'ok' })).toMatchObject({ reason: 'required', field: 'items' });
    expect(refusal({ title: 'ok', items: [{ qty: 1 }] })).toMatchObject({ reason: 'required', field: 'items[0].sku_id' });
    expect(refusal({ title: 'ok', items: [{ sku_id: 'sku_1', qty: 1 }], colour: 'red' })).toMatchObject({ reason: 'unknown_field', field: 'colour' });
    expect(refusal({ title: 5, items: [{ sku_id: 'sku_1', qty: 1 }] })).toMatchObject({ reason: 'invalid_value', field: 'title' });
  });

  it('spell paths with dots and list positions, JSON pointer escapes undone', () => {
    expect(fieldPath('')).toBe('');
    expect(fieldPath('/items/12/sku_id')).toBe('items[12].sku_id');
    expect(fieldPath('/fields', 'a~b/c')).toBe('fields.a~b/c');
    expect(fieldPath('/fields/a~0b~1c')).toBe('fields.a~b/c');
  });
});

describe('carried to GraphQL, not to REST', () => {
  it('a GraphQL error has code, details, reason and field (prefixed with the argument)', () => {
    const error = new AppError('exceeds_remaining', 'too many', { requested: 3, remaining: 2 }, { field: 'items[0].qty' });
    expect(error.toGraphQLError().extensions).toEqual({
      code: 'exceeds_remaining',
      requested: 3,
      remaining: 2,
      reason: 'exceeds_remaining',
      field: 'input.items[0].qty',
    });
  });

  it('back from a GraphQL error, REST and MCP get the details alone', () => {
    const back = fromExtensions('conflict', 'taken', conflict('taken', { reason: 'duplicate', field: 'handle' }).toGraphQLError().extensions);
    expect([back.details, back.reason, back.field]).toEqual([{}, 'duplicate', 'handle']);
    // A shipping refusal's REST body named its reason before reasons existed: it still does.
    const shipping = new AppError('conflict', 'cannot take', { reason: 'too_heavy' }, { reason: 'too_heavy' });
    expect(fromExtensions('conflict', 'cannot take', shipping.toGraphQLError().extensions).details).toEqual({ reason: 'too_heavy' });
  });

  it('a kind with one meaning implies its reason; a state machine refuses with illegal_transition', () => {
    expect(validationFailed('bad').reason).toBe('invalid_value');
    expect(new AppError('internal', 'oops').reason).toBeUndefined();
    const machine = defineStateMachine({ name: 'parcel', transitions: { pending: ['sent'], sent: [] }, actions: { split: ['pending'] } });
    expect(refusedBy(() => machine.assertMove('p1', 'sent', 'pending')).reason).toBe('illegal_transition');
    expect(refusedBy(() => machine.assertAllowed('p1', 'sent', 'split')).reason).toBe('illegal_transition');
  });
});
