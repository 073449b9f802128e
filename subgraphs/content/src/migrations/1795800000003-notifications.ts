import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Message notifications: registered channels, templates, enablement, what content learned of orders
 * (their customer, from order.created / order.paid: other order events do not carry it), and the record
 * of every message. Stores are identity's: referred to by id ('' in store_key: the whole tenant).
 */
export class Notifications1795800000003 implements MigrationInterface {
  name = 'Notifications1795800000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE content.notification_channel (
        tenant_id text NOT NULL,
        key text NOT NULL,
        label text NOT NULL,
        notice text,
        extension_id text,
        variant_schema jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, key)
      )`);
    await q.query(`
      CREATE TABLE content.notification_template (
        tenant_id text NOT NULL,
        store_key text NOT NULL,
        type_key text NOT NULL,
        channel_key text NOT NULL,
        locale text NOT NULL,
        fields jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, type_key, channel_key, store_key, locale)
      )`);
    await q.query(`
      CREATE TABLE content.notification_setting (
        tenant_id text NOT NULL,
        store_key text NOT NULL,
        type_key text NOT NULL,
        channel_key text NOT NULL,
        enabled boolean NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, type_key, channel_key, store_key)
      )`);
    await q.query(`
      CREATE TABLE content.notification_order (
        tenant_id text NOT NULL,
        order_id text NOT NULL,
        store_id text NOT NULL,
        customer_email text NOT NULL,
        customer_name text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (tenant_id, order_id)
      )`);
    await q.query(`
      CREATE TABLE content.notification (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        store_id text,
        type_key text NOT NULL,
        channel_key text NOT NULL,
        locale text NOT NULL,
        -- The event it was sent for (null for a resend), and what the type refers to (a login code).
        event_id text,
        source_ref text,
        recipient text NOT NULL,
        recipient_name text,
        sender_name text NOT NULL,
        reply_to text NOT NULL,
        -- The rendered snapshot; all null for an authentication code (rendered at send time, never stored).
        subject text,
        body_html text,
        body_text text,
        resent_from text REFERENCES content.notification (id),
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts integer NOT NULL DEFAULT 0,
        last_error text,
        message_id text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        last_attempt_at timestamptz,
        sent_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX notification_per_event ON content.notification (tenant_id, event_id, type_key, channel_key) WHERE event_id IS NOT NULL`);
    await q.query(`CREATE INDEX notification_by_tenant ON content.notification (tenant_id, created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE content.notification`);
    await q.query(`DROP TABLE content.notification_order`);
    await q.query(`DROP TABLE content.notification_setting`);
    await q.query(`DROP TABLE content.notification_template`);
    await q.query(`DROP TABLE content.notification_channel`);
  }
}
