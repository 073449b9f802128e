import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Institutional pages: metadata of a page whose content lives in the theme template (`template_key`).
 * Stores are identity's: referred to by id, never joined. Rules in domain/pages.ts.
 */
export class Pages1795800000001 implements MigrationInterface {
  name = 'Pages1795800000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content.page (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        store_id text NOT NULL,
        slug text COLLATE "C" NOT NULL CHECK (slug ~ '^[a-z0-9]+(-[a-z0-9]+)*$' AND length(slug) <= 120),
        title text NOT NULL CHECK (length(title) >= 1),
        template_key text NOT NULL CHECK (length(template_key) >= 1),
        published boolean NOT NULL DEFAULT false,
        meta_title text CHECK (length(meta_title) >= 1),
        meta_description text CHECK (length(meta_description) >= 1),
        -- Null: active. Set: archived (hidden from the storefront and from default listings).
        archived_at timestamptz,
        -- Who created and last changed it: the API key's id and its name at that moment (personal).
        created_by_id text NOT NULL,
        created_by_name text NOT NULL,
        updated_by_id text NOT NULL,
        updated_by_name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp()
      )`);
    // A slug is unique in its store, archived pages included: what makes racing creates safe.
    await q.query(`CREATE UNIQUE INDEX page_store_slug ON content.page (store_id, slug)`);
    await q.query(`CREATE INDEX page_tenant_title ON content.page (tenant_id, lower(title), id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE content.page`);
  }
}
