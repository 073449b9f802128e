// GraphQL Code Generator (client preset): typed documents for the admin's `.graphql` files, generated
// from the gateway's API schema (schema/api.graphql, `npm run generate`), committed in src/gql/ and
// checked fresh by test/admin-generated.test.ts. `npm run generate` runs it after the schema.
import { createHash } from 'node:crypto';
import type { CodegenConfig } from '@graphql-codegen/cli';
import { printExecutableGraphQLDocument } from '@graphql-tools/documents';
import type { DocumentNode } from 'graphql';

/**
 * The manifest the gateway's TRUSTED_DOCUMENTS reads (src/gql/persisted-documents.json) maps the
 * sha256 of each document's text, as bare lower-case hex (the preset's 'sha256' writes `sha256:<hex>`,
 * which the gateway refuses), to that text. Each document also carries its text (`__meta__.text`):
 * the page sends exactly that text (src/graphql/trusted.ts), so its hash is the manifest's.
 */
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

const config: CodegenConfig = {
  // Paths from the repository's root, where `npm run generate` runs it (and the freshness test, with `cwd`).
  schema: 'schema/api.graphql',
  documents: ['admin/src/**/*.graphql'],
  generates: {
    'admin/src/gql/': {
      preset: 'client',
      presetConfig: {
        fragmentMasking: false,
        // The preset prints the manifest's text the same way (its @client/@connection stripping aside; neither is used here).
        onExecutableDocumentNode: (document: DocumentNode) => ({ text: printExecutableGraphQLDocument(document) }),
        persistedDocuments: { mode: 'replaceDocumentWithHash', hashAlgorithm: sha256Hex },
      },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: { ID: 'string', DateTime: 'string', SafeInt: 'number', JSON: 'unknown' },
        strictScalars: true,
      },
    },
  },
  silent: true,
};

export default config;
