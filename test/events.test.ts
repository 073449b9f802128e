import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { MigrationInterface, QueryRunner } from 'typeorm';
import { catalog } from '@backoffice/catalog';
import { defineEvent, defineOperation, emittersOf, eventDraft, SubgraphRuntime, t as s, type Actor } from '@backoffice/platform';
import { definitionProblems } from '../platform/src/subgraph';
import { openApiDocument } from '../gateway/src/openapi';
import { EVENTS, SUBGRAPHS } from '../gateway/src/subgraphs';
import { freshDatabase } from './helpers';

/** A throwaway subgraph whose commands emit a declared event rightly, wrongly, or one they do not declare. */
class Notes1763800000300 implements MigrationInterface {
  name = 'Notes1763800000300';
  async up(q: QueryRunner) {
    await q.query('CREATE TABLE eventkit.note (id text PRIMARY KEY)');
  }
  async down(q: QueryRunner) {
    await q.query('DROP TABLE eventkit.note');
  }
}

const noteWritten = defineEvent('eventkit.note.written', s.object({ note_id: s.string(), words: s.integer({ minimum: 0 }) }), 'A note was written.');
const noteErased = defineEvent('eventkit.note.erased', s.object({ note_id: s.string() }), 'A note was erased.');

const write = defineOperation({
  name: 'eventkit.note.write',
  kind: 'command',
  access: 'internal',
  scope: null,
  summary: 'test',
  input: s.object({ id: s.id(), emit: s.enum(['right', 'wrong_payload', 'undeclared'] as const) }),
  result: s.object({ id: s.string() }),
  events: [noteWritten],
  async handler({ input, db, emit }) {
    await db.query('INSERT INTO eventkit.note (id) VALUES ($1)', [input.id]);
    if (input.emit === 'right') emit(noteWritten, { note_id: input.id, words: 3 });
    // @ts-expect-error a payload outside the event's schema does not compile
    if (input.emit === 'wrong_payload') emit(noteWritten, { note_id: input.id, words: 'three' });
    // @ts-expect-error an event the operation does not declare does not compile
    if (input.emit === 'undeclared') emit(noteErased, { note_id: input.id });
    return { id: input.id };
  },
});

const definition = {
  name: 'eventkit',
  summary: 'a test subgraph',
  defaultPort: 0,
  schemaFile: '',
  operations: [write],
  events: [noteWritten, noteErased],
  entities: [],
  migrations: [Notes1763800000300],
};
const actor: Actor = { tenant_id: 'ten_e', api_key_id: 'key_e', credential_id: 'cred_e', name: 'tester', scopes: [], is_owner: false };
let db: Awaited<ReturnType<typeof freshDatabase>>;
let runtime: SubgraphRuntime;
const logs: string[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  runtime = await new SubgraphRuntime(definition, {
    url: db.url,
    contextSecret: randomBytes(32).toString('hex'),
    relay: { pollMs: 50 },
    log: (l) => logs.push(l),
  }).start({ relay: false });
});
afterAll(async () => {
  await runtime.stop();
  await db.drop();
});

const run = (id: string, emit: string) => runtime.executor.execute(write, { id, emit }, { actor, request_id: `req_${id}` });
const rows = async (sql: string, id: string) => Number((await runtime.dataSource.query(sql, [id]))[0].n);

describe('emitting typed events', () => {
  it('writes a declared event with its payload to the outbox, in the envelope it always had', async () => {
    await run('n1', 'right');
    const [event] = await runtime.dataSource.query(`SELECT type, tenant_id, actor_id, request_id, payload FROM eventkit.outbox_event`);
    expect(event).toEqual({ type: 'eventkit.note.written', tenant_id: 'ten_e', actor_id: 'key_e', request_id: 'req_n1', payload: { note_id: 'n1', words: 3 } });
  });

  it.each(['wrong_payload', 'undeclared'])('refuses a %s as internal and rolls the command back', async (emit) => {
    const id = `n-${emit}`;
    await expect(run(id, emit)).rejects.toMatchObject({ kind: 'internal' });
    expect(await rows('SELECT count(*) AS n FROM eventkit.note WHERE id = $1', id)).toBe(0);
    expect(await rows(`SELECT count(*) AS n FROM eventkit.outbox_event WHERE payload->>'note_id' = $1`, id)).toBe(0);
    // The cause is logged with the request id, never shown.
    expect(logs.join('\n')).toContain(emit === 'undeclared' ? 'may not emit eventkit.note.erased' : 'payload outside its schema: words must be integer');
  });

  it('checks a payload against its schema wherever an event is drafted', () => {
    expect(eventDraft('x', [noteWritten], noteWritten, { note_id: 'a', words: 1 })).toEqual({
      type: 'eventkit.note.written',
      payload: { note_id: 'a', words: 1 },
    });
    expect(() => eventDraft('x', [noteWritten], noteWritten, { note_id: 'a', words: 1, token: 'bok_…' })).toThrow('token is not a known field');
    expect(() => eventDraft('x', [noteWritten], noteErased, { note_id: 'a' })).toThrow('x may not emit eventkit.note.erased');
  });
});

describe('event declarations', () => {
  it('cover every event an operation emits, and each has an emitter', () => {
    for (const subgraph of SUBGRAPHS) {
      expect(definitionProblems(subgraph)).toEqual([]);
      const emitted = new Set(emittersOf(subgraph).keys());
      expect(subgraph.events.filter((event) => !emitted.has(event)).map((event) => event.name)).toEqual([]);
    }
  });

  it('are unique by name across the system', () => {
    const names = SUBGRAPHS.flatMap((subgraph) => subgraph.events.map((event) => event.name));
    expect(names.length).toBe(new Set(names).size);
  });

  it('keep a subgraph whose operation emits an undeclared event from starting', () => {
    expect(() => new SubgraphRuntime({ ...definition, events: [noteErased] }, { url: db.url, contextSecret: 'x' })).toThrow(
      'eventkit.note.write emits eventkit.note.written, which eventkit does not declare',
    );
  });

  it('make the event catalog: OpenAPI webhooks with the envelope and each payload schema, listed in docs/events-and-webhooks.md', () => {
    const webhooks = openApiDocument().webhooks as Record<
      string,
      { post: { requestBody: { content: { 'application/json': { schema: { properties: Record<string, unknown>; required: string[] } } } } } }
    >;
    expect(Object.keys(webhooks).sort()).toEqual([...EVENTS.keys()].sort());
    const doc = readFileSync(join(__dirname, '..', 'docs', 'events-and-webhooks.md'), 'utf8');
    const section = doc.slice(doc.indexOf('\n## Events'), doc.indexOf('\n## ', doc.indexOf('\n## Events') + 1));
    for (const { event, emitters } of EVENTS.values()) {
      const schema = webhooks[event.name].post.requestBody.content['application/json'].schema;
      expect(schema.required).toEqual(['event_id', 'type', 'tenant_id', 'occurred_at', 'actor_id', 'request_id', 'payload']);
      expect(schema.properties.type).toEqual({ type: 'string', enum: [event.name] });
      expect(schema.properties.payload).toEqual(JSON.parse(JSON.stringify(event.payload)));
      expect([event.name, section.includes(`\`${event.name}\``)]).toEqual([event.name, true]);
      for (const emitter of emitters) expect([event.name, emitter, section.includes(`\`${emitter}\``)]).toEqual([event.name, emitter, true]);
    }
  });
});

describe('ports', () => {
  it('a subgraph started without a port it declares fails at once', () => {
    // @ts-expect-error the catalog declares a store directory: it cannot be started without one
    expect(() => new SubgraphRuntime(catalog, { url: 'postgres://nowhere/none', contextSecret: 'x' })).toThrow('catalog needs its ports stores');
  });
});
