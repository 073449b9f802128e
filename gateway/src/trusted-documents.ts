import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import type { ApolloServerPlugin } from '@apollo/server';
import { isOperatorSession, type Actor } from '@backoffice/platform';
import type { FastifyRequest } from 'fastify';
import { GraphQLError } from 'graphql';

/**
 * Trusted documents (`TRUSTED_DOCUMENTS=<manifest>`): the admin front-end's operations, fixed when it
 * is built, are the only documents an operator session may run over /graphql; a stolen session then
 * cannot query what the admin never asks. API keys (programs) still send any document. The manifest
 * is what GraphQL Code Generator's client preset writes with `persistedDocuments: true`
 * (`persisted-documents.json`: sha256 of the text → the text).
 */
export type TrustedDocuments = ReadonlyMap<string, string>;

/** Bounds of the manifest, checked at start. */
export const TRUSTED_DOCUMENT_LIMITS = { maxBytes: 8 * 1024 * 1024, maxEntries: 5_000, maxDocumentBytes: 64 * 1024 };

const SHA256_HEX = /^[0-9a-f]{64}$/;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Reads and checks the manifest at `path`; any fault stops the start with the entry at fault. */
export function loadTrustedDocuments(path: string): TrustedDocuments {
  const { maxBytes, maxEntries, maxDocumentBytes } = TRUSTED_DOCUMENT_LIMITS;
  const fail = (why: string) => new Error(`TRUSTED_DOCUMENTS (${path}): ${why}`);
  const size = statSync(path).size;
  if (size > maxBytes) throw fail(`the manifest is ${size} bytes, over the limit of ${maxBytes}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw fail(`not JSON (${(error as Error).message})`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw fail('must be a JSON object of sha256 hash → document text');
  const entries = Object.entries(parsed);
  if (entries.length > maxEntries) throw fail(`${entries.length} documents, over the limit of ${maxEntries}`);
  for (const [hash, text] of entries) {
    if (typeof text !== 'string' || Buffer.byteLength(text) > maxDocumentBytes)
      throw fail(`the document of ${hash} must be a text of at most ${maxDocumentBytes} bytes`);
    // A hash that is not the text's would let one name run another's text (and breaks Apollo's APQ check).
    if (!SHA256_HEX.test(hash) || sha256(text) !== hash)
      throw fail(`${hash} is not the sha256 (lower-case hex) of its text; build with hashAlgorithm 'sha256'`);
  }
  return new Map(entries as [string, string][]);
}

/** Apollo's answer to a hash it does not know, which APQ clients and persisted-document clients read. */
export const persistedQueryNotFound = () =>
  new GraphQLError('PersistedQueryNotFound', {
    extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 200, headers: new Map([['cache-control', 'private, no-cache, must-revalidate']]) } },
  });

interface Named {
  /** `documentId` (GraphQL over HTTP's persisted documents: `sha256:<hex>` or the bare hex). */
  documentId?: string;
  /** Apollo's APQ form: `extensions.persistedQuery.sha256Hash`. */
  apqHash?: string;
  query?: string;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** What a /graphql request names: from a POST's body, or a GET's parameters (`extensions` JSON-encoded there). */
function namedBy(request: FastifyRequest): Named {
  const fields = (request.method === 'GET' ? request.query : request.body) as Record<string, unknown> | null;
  if (typeof fields !== 'object' || fields === null) return {};
  let extensions = fields.extensions;
  if (typeof extensions === 'string') {
    try {
      extensions = JSON.parse(extensions);
    } catch {
      extensions = undefined; // Apollo refuses it (400) after this
    }
  }
  const persisted = (extensions as { persistedQuery?: { sha256Hash?: unknown } } | null | undefined)?.persistedQuery;
  return { documentId: textOf(fields.documentId), apqHash: textOf(persisted?.sha256Hash), query: textOf(fields.query) };
}

/**
 * The text to run for a request that names a document by hash, or undefined to let Apollo go on with
 * what was sent. Throws for a session sending a document the manifest lacks (forbidden), and for a hash
 * the manifest lacks when it must come from there (PersistedQueryNotFound).
 */
export function trustedDocumentFor(documents: TrustedDocuments | undefined, actor: Actor | null, request: FastifyRequest): string | undefined {
  if (!documents) return undefined;
  const trustedOnly = actor !== null && isOperatorSession(actor);
  const { documentId, apqHash, query } = namedBy(request);
  if (query !== undefined) {
    if (trustedOnly && !documents.has(sha256(query))) {
      throw new GraphQLError(
        "an operator session runs only the admin front-end's trusted documents: send one by its documentId; free documents are for API keys",
        {
          extensions: { code: 'forbidden', http: { status: 403 } },
        },
      );
    }
    return undefined;
  }
  const hash = documentId?.replace(/^sha256:/, '') ?? apqHash;
  if (hash === undefined) return undefined;
  const text = documents.get(hash);
  // An API key's APQ hash may still be one it registered with Apollo (its own cache).
  if (text === undefined && (trustedOnly || documentId !== undefined)) throw persistedQueryNotFound();
  return text;
}

/** Hands Apollo the text a request named by hash (read after `requestDidStart`, before parsing). */
export function trustedDocumentsPlugin<C extends { trustedDocument?: string }>(): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ request, contextValue }) {
      if (contextValue.trustedDocument !== undefined && request.query === undefined) request.query = contextValue.trustedDocument;
    },
  };
}
