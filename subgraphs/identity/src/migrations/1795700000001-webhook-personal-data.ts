import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whether a webhook subscription receives the personal fields of payloads in clear (chosen at
 * creation or update by a key holding `pii.read`); every existing subscription gets them masked.
 */
export class WebhookPersonalData1795700000001 implements MigrationInterface {
  name = 'WebhookPersonalData1795700000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.webhook_subscription ADD COLUMN personal_data boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE identity.webhook_subscription DROP COLUMN personal_data`);
  }
}
