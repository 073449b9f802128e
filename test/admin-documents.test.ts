import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from '@urql/core';
import { exchanges } from '../admin/src/graphql/client';
import * as operations from '../admin/src/graphql/operations';

/**
 * The admin front-end's documents: generated fresh from schema/api.graphql, and sent as the very
 * text the trusted documents' manifest holds under its sha256 (what the gateway's TRUSTED_DOCUMENTS
 * lets an operator session run).
 */
const ROOT = join(__dirname, '..');
const MANIFEST = join(ROOT, 'admin', 'src', 'gql', 'persisted-documents.json');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('admin documents', () => {
  it('are generated fresh: run `npm run generate` after changing the schema or a .graphql file', () => {
    // The CLI's dry run (its ES module dependencies keep it out of jest's CommonJS loader).
    const cliPackage = require.resolve('@graphql-codegen/cli/package.json');
    const cli = join(dirname(cliPackage), (require(cliPackage) as { bin: Record<string, string> }).bin['graphql-codegen']);
    const check = spawnSync(process.execPath, [cli, '--config', 'admin/codegen.ts', '--check'], { cwd: ROOT, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`.trim()).toBe('');
    expect(check.status).toBe(0);
  });

  it('form a manifest the gateway loads: each key the sha256 (bare lower-case hex) of its text', () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
    expect(Object.keys(manifest).length).toBeGreaterThan(0);
    for (const [hash, text] of Object.entries(manifest)) expect([hash, sha256(text)]).toEqual([hash, hash]);
  });

  it('are sent as the manifest text, never reprinted, through the exchanges of the page', async () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as Record<string, string>;
    const sent: Array<{ query?: string; documentId?: string }> = [];
    const fetch: typeof globalThis.fetch = async (_url, init) => {
      sent.push(JSON.parse(String(init?.body)));
      return new Response(JSON.stringify({ data: null }), { headers: { 'content-type': 'application/json' } });
    };
    const client = new Client({ url: 'http://127.0.0.1/graphql', exchanges: exchanges(() => {}), fetch, preferGetMethod: false });
    for (const document of Object.values(operations)) {
      const isMutation = document.definitions.some((d) => d.kind === 'OperationDefinition' && d.operation === 'mutation');
      await (isMutation ? client.mutation(document, {} as never) : client.query(document, {} as never)).toPromise();
    }
    expect(sent.map((body) => body.documentId)).toEqual(sent.map(() => undefined));
    expect(sent.map((body) => manifest[sha256(body.query ?? '')])).toEqual(sent.map((body) => body.query));
    // Every document of the manifest is one the page sends.
    expect(sent.length).toBe(Object.keys(manifest).length);
  });
});
