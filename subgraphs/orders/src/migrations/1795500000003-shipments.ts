import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Shipments (parcels) with the quantities of order items each holds, and documents attached to
 * orders (optionally to one of their parcels). Every order has at least one parcel: orders taken
 * before this migration get one holding all their items, not dispatched, at their hold's warehouse.
 */
export class Shipments1795500000003 implements MigrationInterface {
  name = 'Shipments1795500000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE orders.shipment (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        order_id text NOT NULL REFERENCES orders."order" (id),
        warehouse_id text NOT NULL REFERENCES orders.warehouse (id),
        -- domain/states.ts: pending → dispatched → delivered
        status text NOT NULL CHECK (status IN ('pending', 'dispatched', 'delivered')),
        -- Stamped when the parcel is created, never recalculated.
        estimated_delivery_date date,
        tracking_carrier text,
        tracking_code text,
        tracking_url text,
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        dispatched_at timestamptz,
        delivered_at timestamptz
      )`);
    await q.query(`CREATE INDEX shipment_order ON orders.shipment (order_id, created_at, id)`);
    await q.query(`
      CREATE TABLE orders.shipment_item (
        shipment_id text NOT NULL REFERENCES orders.shipment (id) ON DELETE CASCADE,
        order_item_id text NOT NULL REFERENCES orders.order_item (id),
        -- A parcel holds only what it holds: an item moved out entirely leaves no row behind.
        qty integer NOT NULL CHECK (qty > 0),
        PRIMARY KEY (shipment_id, order_item_id)
      )`);
    await q.query(`CREATE INDEX shipment_item_order_item ON orders.shipment_item (order_item_id)`);
    await q.query(`
      CREATE TABLE orders.order_document (
        id text PRIMARY KEY,
        tenant_id text NOT NULL,
        order_id text NOT NULL REFERENCES orders."order" (id),
        kind text NOT NULL CHECK (kind IN ('fiscal_invoice', 'shipping_label', 'packing_slip', 'content_declaration', 'delivery_proof', 'other')),
        file_url text,
        asset_id text,
        name text,
        shipment_id text REFERENCES orders.shipment (id),
        metadata jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
        -- By external URL or by asset reference: one of the two.
        CHECK ((file_url IS NULL) <> (asset_id IS NULL))
      )`);
    // The same document (kind, URL or asset, shipment) is attached once, whatever the concurrency:
    // the hash keeps long URLs within an index entry.
    await q.query(`
      CREATE UNIQUE INDEX order_document_same ON orders.order_document
        (order_id, kind, coalesce(shipment_id, ''), (file_url IS NULL), md5(coalesce(file_url, asset_id)))`);
    await q.query(`CREATE INDEX order_document_shipment ON orders.order_document (shipment_id) WHERE shipment_id IS NOT NULL`);

    // Orders taken before: one parcel each, with all their items, at their hold's warehouse.
    await q.query(`
      INSERT INTO orders.shipment (id, tenant_id, order_id, warehouse_id, status, created_at, updated_at)
      SELECT 'shp_' || substr(o.id, 5), o.tenant_id, o.id, r.warehouse_id, 'pending', o.created_at, now()
      FROM orders."order" o JOIN orders.reservation r ON r.id = o.reservation_id`);
    await q.query(`
      INSERT INTO orders.shipment_item (shipment_id, order_item_id, qty)
      SELECT 'shp_' || substr(i.order_id, 5), i.id, i.qty FROM orders.order_item i`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE orders.order_document, orders.shipment_item, orders.shipment`);
  }
}
