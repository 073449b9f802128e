import type { MigrationInterface, QueryRunner } from 'typeorm';
import { renderDocuments } from '../domain/product-document';
import { bumpCatalogVersion } from '../domain/storefront-cache';

/**
 * Products' documents in ASCII JSON (domain/product-document.ts, `asciiJson`): the documents holding
 * other characters are rendered again, a slice at a time, and their tenants' catalog versions bumped
 * (a page's ETag promises the same bytes, and these bytes change; the JSON they spell does not).
 */
export class Catalog1796200000001 implements MigrationInterface {
  name = 'Catalog1796200000001';

  async up(q: QueryRunner): Promise<void> {
    const rows = (await q.query(
      `SELECT product_id, tenant_id FROM catalog.product_document WHERE full_json ~ '[^\\x01-\\x7f]' OR feed_json ~ '[^\\x01-\\x7f]' ORDER BY product_id`,
    )) as { product_id: string; tenant_id: string }[];
    const ids = rows.map((r) => r.product_id);
    for (let from = 0; from < ids.length; from += 5000) await renderDocuments(q.manager, ids.slice(from, from + 5000));
    for (const tenant of new Set(rows.map((r) => r.tenant_id))) await bumpCatalogVersion(q.manager, tenant);
  }

  // The escaped documents spell the same JSON as before: nothing to undo.
  async down(): Promise<void> {}
}
