import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TObject, TSchema } from '@sinclair/typebox';

/**
 * What the surfaces generated from declarations (MCP, CLI, SDK) show of an operation, a merged read
 * included: built once (subgraphs.ts), so that they cannot each fill a merged read's gaps their own way.
 */
export interface SurfaceView {
  name: string;
  kind: 'command' | 'read';
  access: 'public' | 'internal';
  scope: string | null;
  ownerGated: boolean;
  idempotent: boolean;
  /** The summary with its deprecation notice first, when deprecated. */
  description: string;
  input: TObject;
  result: TSchema;
  projections: Record<string, TSchema>;
  /** A read's path below /v1/read. */
  restPath?: string;
  queryFamilies?: Record<string, string>;
  /** A family's item fields when not `name` and `value`. */
  queryFamilyKeys?: Record<string, { name: string; value: string }>;
}

/**
 * Every surface view as JSON, written by `npm run generate` (test/generated.test.ts keeps it fresh):
 * the CLI and MCP over stdio read it instead of loading the subgraphs, which takes a second.
 */
export const SURFACE_VIEWS_FILE = join(__dirname, '..', 'surfaces.json');

export const readSurfaceViews = (): SurfaceView[] => JSON.parse(readFileSync(SURFACE_VIEWS_FILE, 'utf8')) as SurfaceView[];
