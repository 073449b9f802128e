import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Operators (admin users) and how they log in: one-time codes sent by mail, OIDC login attempts,
 * and sessions. Secrets are kept hashed (codes, session tokens, OIDC `state`); the one thing kept
 * readable is a code's copy for the mail, sealed (AES-256-GCM) and erased once used or expired.
 */
export class Operators1795900000001 implements MigrationInterface {
  name = 'Operators1795900000001';

  async up(q: QueryRunner): Promise<void> {
    // The states an operator can be in, as data: a status outside this table cannot be written.
    await q.query(`
      CREATE TABLE identity.admin_user_status (
        status text PRIMARY KEY,
        can_log_in boolean NOT NULL,
        description text NOT NULL
      )`);
    await q.query(`
      INSERT INTO identity.admin_user_status (status, can_log_in, description) VALUES
        ('invited', true, 'invited by admin_user.invite; the first successful login (code or OIDC) makes it active'),
        ('active', true, 'has logged in at least once; sessions work'),
        ('deactivated', false, 'removed by admin_user.deactivate: no login, every session revoked; its email may be invited again')`);
    await q.query(`
      CREATE TABLE identity.admin_user (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        email text NOT NULL CHECK (length(email) <= 320),
        name text NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'staff')),
        locale text NOT NULL CHECK (length(locale) BETWEEN 2 AND 10),
        status text NOT NULL REFERENCES identity.admin_user_status (status),
        invited_by text,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        activated_at timestamptz,
        deactivated_at timestamptz
      )`);
    // One operator per email in a tenant among those not removed: two invitations racing, one conflicts.
    await q.query(`CREATE UNIQUE INDEX admin_user_email_live ON identity.admin_user (tenant_id, lower(email)) WHERE status <> 'deactivated'`);
    await q.query(`CREATE INDEX admin_user_tenant ON identity.admin_user (tenant_id, created_at, id)`);

    await q.query(`
      CREATE TABLE identity.login_code (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        admin_user_id text NOT NULL REFERENCES identity.admin_user (id),
        code_hash bytea NOT NULL,
        sealed_code text,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await q.query(`CREATE INDEX login_code_operator ON identity.login_code (admin_user_id, created_at DESC)`);
    // The hourly sweep (jobs/auth.sweep_expired.ts) finds what expired by these.
    await q.query(`CREATE INDEX login_code_expiry ON identity.login_code (expires_at)`);

    await q.query(`
      CREATE TABLE identity.oidc_login (
        state_hash bytea PRIMARY KEY,
        tenant_id text NOT NULL,
        store_id text NOT NULL,
        nonce text NOT NULL,
        code_verifier text NOT NULL,
        redirect_uri text NOT NULL,
        -- The browser that started it (a value it keeps in a cookie), so a code and state are worth nothing elsewhere.
        binding_hash bytea NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);

    await q.query(`
      CREATE TABLE identity.operator_session (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        admin_user_id text NOT NULL REFERENCES identity.admin_user (id),
        secret_hash bytea NOT NULL,
        method text NOT NULL CHECK (method IN ('login_code', 'oidc')),
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await q.query(`CREATE INDEX operator_session_operator ON identity.operator_session (admin_user_id) WHERE revoked_at IS NULL`);
    await q.query(`CREATE INDEX operator_session_end ON identity.operator_session ((coalesce(revoked_at, expires_at)))`);
    await q.query(`CREATE INDEX oidc_login_expiry ON identity.oidc_login (expires_at)`);
    // The owner key carries every scope: existing ones get the new read of operators.
    await q.query(`UPDATE identity.api_key SET scopes = array_append(scopes, 'admin.users.read') WHERE is_owner AND NOT ('admin.users.read' = ANY (scopes))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE identity.operator_session, identity.oidc_login, identity.login_code, identity.admin_user, identity.admin_user_status`);
  }
}
