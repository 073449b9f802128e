import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Stock (warehouses, levels, reservations), payment apps and windows, coupons, orders with their
 * items and payment attempts, and when expiry of unpaid orders started in each tenant.
 * SKUs and stores are the catalog's and identity's: referred to by id, never joined.
 */
export class Orders1795500000001 implements MigrationInterface {
  name = 'Orders1795500000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE orders.warehouse (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        code text NOT NULL,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, code)
      )`);
    await q.query(`
      CREATE TABLE orders.stock_level (
        warehouse_id text NOT NULL REFERENCES orders.warehouse (id),
        sku_id text NOT NULL,
        tenant_id text NOT NULL,
        on_hand bigint NOT NULL DEFAULT 0 CHECK (on_hand >= 0),
        reserved bigint NOT NULL DEFAULT 0 CHECK (reserved >= 0),
        updated_at timestamptz NOT NULL DEFAULT now(),
        -- Never more held than there is: what makes overselling impossible whatever the concurrency.
        CHECK (reserved <= on_hand),
        PRIMARY KEY (warehouse_id, sku_id)
      )`);
    await q.query(`CREATE INDEX stock_level_tenant ON orders.stock_level (tenant_id, sku_id)`);
    await q.query(`
      CREATE TABLE orders.reservation (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        warehouse_id text NOT NULL REFERENCES orders.warehouse (id),
        status text NOT NULL CHECK (status IN ('active', 'committed', 'released')),
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        settled_at timestamptz
      )`);
    await q.query(`CREATE INDEX reservation_due ON orders.reservation (expires_at) WHERE status = 'active' AND expires_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE orders.reservation_item (
        reservation_id text NOT NULL REFERENCES orders.reservation (id),
        sku_id text NOT NULL,
        qty integer NOT NULL CHECK (qty > 0),
        PRIMARY KEY (reservation_id, sku_id)
      )`);
    await q.query(`
      CREATE TABLE orders.payment_app (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        app_key text NOT NULL,
        name text NOT NULL,
        -- [{method, reservation_window_seconds}]
        methods jsonb NOT NULL,
        installed boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (tenant_id, app_key)
      )`);
    await q.query(`
      CREATE TABLE orders.payment_window (
        tenant_id text NOT NULL,
        store_id text NOT NULL,
        app_id text NOT NULL REFERENCES orders.payment_app (id),
        method text NOT NULL,
        reservation_window_seconds integer NOT NULL,
        PRIMARY KEY (store_id, app_id, method)
      )`);
    await q.query(`
      CREATE TABLE orders.coupon (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        code text NOT NULL,
        percent_off integer,
        amount_off bigint,
        currency char(3),
        max_uses integer,
        uses integer NOT NULL DEFAULT 0,
        expires_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((percent_off IS NULL) <> (amount_off IS NULL)),
        -- Never more uses than allowed, whatever the concurrency.
        CHECK (max_uses IS NULL OR uses <= max_uses),
        CHECK (uses >= 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX coupon_code ON orders.coupon (tenant_id, lower(code))`);
    await q.query(`
      CREATE TABLE orders."order" (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        store_id text NOT NULL,
        status text NOT NULL CHECK (status IN ('pending_payment', 'paid', 'cancelled')),
        currency char(3) NOT NULL,
        subtotal_amount bigint NOT NULL,
        discount_amount bigint NOT NULL,
        total_amount bigint NOT NULL,
        customer jsonb NOT NULL,
        shipping_address jsonb,
        coupon_id text REFERENCES orders.coupon (id),
        reservation_id text NOT NULL REFERENCES orders.reservation (id),
        metadata jsonb NOT NULL DEFAULT '{}',
        cancel_reason text,
        -- Derived by domain/payment-expiry.ts (refreshPaymentExpiry) while the order awaits payment:
        -- 'timed' with payment_due_at, or 'windowless', or 'predating'.
        payment_expiry text CHECK (payment_expiry IN ('timed', 'windowless', 'predating')),
        payment_due_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        paid_at timestamptz,
        cancelled_at timestamptz,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX order_tenant ON orders."order" (tenant_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX order_reservation ON orders."order" (reservation_id)`);
    await q.query(`CREATE INDEX order_due ON orders."order" (tenant_id, payment_due_at, id) WHERE status = 'pending_payment' AND payment_expiry = 'timed'`);
    await q.query(`CREATE INDEX order_untimed ON orders."order" (tenant_id, payment_expiry) WHERE status = 'pending_payment' AND payment_expiry <> 'timed'`);
    await q.query(`
      CREATE TABLE orders.order_item (
        id text PRIMARY KEY,
        order_id text NOT NULL REFERENCES orders."order" (id),
        tenant_id text NOT NULL,
        sku_id text NOT NULL,
        product_id text NOT NULL,
        code text NOT NULL,
        title text NOT NULL,
        qty integer NOT NULL CHECK (qty > 0),
        unit_amount bigint NOT NULL,
        line_amount bigint NOT NULL,
        position integer NOT NULL
      )`);
    await q.query(`CREATE INDEX order_item_order ON orders.order_item (order_id, position)`);
    await q.query(`
      CREATE TABLE orders.payment_attempt (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        order_id text NOT NULL REFERENCES orders."order" (id),
        app_id text NOT NULL REFERENCES orders.payment_app (id),
        method text NOT NULL,
        status text NOT NULL CHECK (status IN ('open', 'confirming', 'succeeded', 'failed')),
        failure_reason text,
        provider_reference text,
        -- A payment reported after its order was cancelled: kept, reported, never applied.
        orphaned_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX payment_attempt_order ON orders.payment_attempt (order_id, created_at DESC)`);
    await q.query(`
      CREATE TABLE orders.expiry_start (
        tenant_id text PRIMARY KEY,
        started_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE orders.expiry_start, orders.payment_attempt, orders.order_item, orders."order", orders.coupon, orders.payment_window,
      orders.payment_app, orders.reservation_item, orders.reservation, orders.stock_level, orders.warehouse`);
  }
}
