import { readFileSync } from 'node:fs';
import { composeServices } from '@apollo/composition';
import { parse } from 'graphql';
import { CURRENT_FILE, checkSchema, readDeclared, RELEASED_FILE, TODO_REASON } from '../scripts/schema-check';

/** A one-subgraph supergraph: the check reads supergraphs, as committed. */
function supergraph(typeDefs: string): string {
  const result = composeServices([{ name: 'shop', url: 'http://shop', typeDefs: parse(typeDefs) }]);
  if (result.errors) throw result.errors[0];
  return result.supergraphSdl;
}

const released = supergraph('type Query { order(id: String!): Order } type Order { id: String! total: Int }');
const broken = supergraph('type Query { order(id: ID!): Order } type Order { id: String! }');

describe('schema changes checked (npm test runs this)', () => {
  it('the committed supergraph.graphql breaks nothing against the released baseline that is not declared with a reason', async () => {
    const result = await checkSchema(readFileSync(RELEASED_FILE, 'utf8'), readFileSync(CURRENT_FILE, 'utf8'), readDeclared());
    expect(result.undeclared).toEqual([]);
    expect(result.unexplained).toEqual([]);
  });

  it('reports undeclared breaks in the declarations file format, ready to be given a reason and pasted', async () => {
    const result = await checkSchema(released, broken, []);
    expect(result.undeclared).toEqual([
      expect.objectContaining({ type: 'FIELD_REMOVED', path: 'Order.total', reason: TODO_REASON }),
      expect.objectContaining({ type: 'FIELD_ARGUMENT_TYPE_CHANGED', path: 'Query.order.id', reason: TODO_REASON }),
    ]);
    expect(Object.keys(result.undeclared[0]).sort()).toEqual(['message', 'path', 'reason', 'type']);
  });

  it('accepts declared breaks with a reason, and refuses a declaration whose reason was not written', async () => {
    const { undeclared } = await checkSchema(released, broken, []);
    const declared = undeclared.map((change) => ({ ...change, reason: 'ids are opaque (issue 27)' }));
    expect(await checkSchema(released, broken, declared)).toMatchObject({ undeclared: [], unexplained: [], stale: [] });
    expect((await checkSchema(released, broken, undeclared)).unexplained).toHaveLength(2);
  });

  it('lets additions through and names declarations that match nothing', async () => {
    const added = supergraph('type Query { order(id: String!): Order orders: [Order!] } type Order { id: String! total: Int note: String }');
    const declaration = { type: 'FIELD_REMOVED', path: 'Order.total', message: '', reason: 'gone' };
    expect(await checkSchema(released, added, [declaration])).toMatchObject({ undeclared: [], stale: [declaration] });
  });
});
