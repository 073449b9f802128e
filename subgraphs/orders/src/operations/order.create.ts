import { storeOfTenant } from '@backoffice/contracts';
import { AppError, conflict, newId, t, validationFailed } from '@backoffice/platform';
import { refreshPaymentExpiry } from '../domain/payment-expiry';
import { insertShipment } from '../domain/shipments';
import { checkShipping, parcelOf } from '../domain/shipping';
import { distinctSkus, hold, stockLines, warehouseOf } from '../domain/stock';
import { inventoryReserved, orderCreated } from '../events';
import { defineOrdersOperation } from '../ports';
import { KEY_PATTERN } from '../domain/payments';
import { MACHINES } from '../domain/states';

const text = (max: number) => t.string({ minLength: 1, maxLength: max });

export const orderCreate = defineOrdersOperation({
  name: 'order.create',
  kind: 'command',
  access: 'internal',
  scope: 'order.write',
  summary:
    'Takes an order: prices, currency and titles from the catalog now, stock held and coupon use counted in the ' +
    'same transaction, and with `payment` an open payment attempt that starts the payment window (extension).',
  input: t.object({
    store_id: t.id("the store's id or handle"),
    customer: t.object({ email: t.email(), name: t.optional(text(200)), phone: t.optional(text(40)) }),
    shipping_address: t.optional(
      t.object({
        name: text(200),
        line1: text(200),
        line2: t.optional(text(200)),
        city: text(120),
        region: t.optional(text(120)),
        postal_code: text(20),
        country: t.string({ minLength: 2, maxLength: 2, pattern: '^[A-Z]{2}$', description: 'ISO 3166-1 alpha-2' }),
      }),
    ),
    items: stockLines(1000),
    payment: t.optional(t.object({ app_id: t.id(), method: t.string({ minLength: 1, maxLength: 64, pattern: KEY_PATTERN }) })),
    coupon_code: t.optional(t.string({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]{1,64}$' })),
    warehouse_id: t.optional(t.id()),
    shipping_method_id: t.optional(
      t.id(
        'checked against the parcel of the items and the shipping address (which it then needs); its transit days give the parcel its ' +
          'estimated delivery date, its rates the order’s shipping_amount',
      ),
    ),
    metadata: t.optional(t.record({ description: 'kept with the order' })),
  }),
  result: t.object({
    order_id: t.string(),
    status: MACHINES.order.enum(['pending_payment']),
    currency: t.string(),
    subtotal_amount: t.integer({ minimum: 0 }),
    discount_amount: t.integer({ minimum: 0 }),
    shipping_amount: t.integer({ minimum: 0, description: 'the shipping method’s price for this parcel; 0 without a method or rates (extension)' }),
    total_amount: t.integer({ minimum: 0, description: 'subtotal_amount − discount_amount + shipping_amount' }),
    reservation_id: t.string(),
    payment_attempt_id: t.nullable(t.string()),
    payment_expires_at: t.nullable(t.timestamp()),
    shipment_id: t.string({ description: 'the parcel holding every item' }),
    estimated_delivery_date: t.nullable(t.string({ description: 'YYYY-MM-DD, from the shipping method; fixed now, never recalculated' })),
  }),
  events: [orderCreated, inventoryReserved],
  async handler({ input, actor, db, sql, emit, ports }) {
    const tenantId = actor.tenant_id;
    distinctSkus(input.items);
    // The id from here on, whether the caller named the store by id or handle: rows and events carry the id.
    const storeId = await storeOfTenant(ports.stores, tenantId, input.store_id);
    // What the catalog says now: the order keeps this snapshot.
    const skus = new Map(
      (
        await ports.catalog.skus(
          tenantId,
          input.items.map((i) => i.sku_id),
          storeId,
        )
      ).map((s) => [s.sku_id, s]),
    );
    const lines = input.items.map((item, position) => {
      const sku = skus.get(item.sku_id);
      if (!sku) throw conflict(`sku ${item.sku_id} does not exist in this tenant`, { reason: 'not_found', field: `items[${position}].sku_id` });
      if (!sku.active) throw conflict(`sku ${item.sku_id} is not active`, { reason: 'not_for_sale', field: `items[${position}].sku_id` });
      if (!sku.published)
        throw conflict(`sku ${item.sku_id} is not published to store ${storeId}`, {
          reason: 'not_for_sale',
          field: `items[${position}].sku_id`,
        });
      return { ...item, ...sku, position, line_amount: sku.unit_amount * item.qty };
    });
    const currencies = new Set(lines.map((l) => l.currency));
    if (currencies.size > 1)
      throw conflict(`the items are priced in different currencies (${[...currencies].join(', ')})`, { reason: 'invalid_combination', field: 'items' });
    const currency = lines[0].currency;
    const subtotal = lines.reduce((sum, l) => sum + l.line_amount, 0);
    if (!Number.isSafeInteger(subtotal)) throw conflict('the order total is too large', { reason: 'out_of_range', field: 'items' });

    // The method must carry this parcel to this address, priced in the order's currency: refused with the reason otherwise.
    let estimatedDeliveryDate: string | null = null;
    let shipping = 0;
    if (input.shipping_method_id) {
      if (!input.shipping_address)
        throw validationFailed('shipping_address: required with a shipping_method_id', { reason: 'required', field: 'shipping_address' });
      const { verdict } = await checkShipping(db, tenantId, input.shipping_method_id, parcelOf(lines), input.shipping_address.postal_code, currency);
      if (!verdict.ok) {
        throw new AppError(
          'conflict',
          `shipping method ${input.shipping_method_id} cannot take this order: ${verdict.reason}`,
          { reason: verdict.reason },
          { reason: verdict.reason },
        );
      }
      estimatedDeliveryDate = verdict.estimated_delivery_date;
      shipping = verdict.shipping_amount;
    }

    let app: { id: string } | undefined;
    if (input.payment) {
      [app] = await sql.rows<{ id: string }>(`SELECT id FROM orders.payment_app WHERE id = $1 AND tenant_id = $2 AND installed AND methods @> $3::jsonb`, [
        input.payment.app_id,
        tenantId,
        JSON.stringify([{ method: input.payment.method }]),
      ]);
      if (!app)
        throw conflict(`payment app ${input.payment.app_id} is not installed in this tenant with method ${input.payment.method}`, {
          reason: 'not_found',
          field: 'payment',
        });
    }

    const warehouseId = await warehouseOf(db, tenantId, input.warehouse_id);
    // One hold per order; it lasts as long as the order awaits payment (no expiry of its own).
    const reservation = await hold(db, tenantId, warehouseId, input.items, null);

    let couponId: string | null = null;
    let discount = 0;
    if (input.coupon_code) {
      // Counted in this transaction: the row's CHECK (uses <= max_uses) makes the cap hold under any
      // concurrency. After the hold: stock rows, then the coupon, the order cancellation locks them in.
      const [coupon] = await sql.returning<{ id: string; percent_off: number | null; amount_off: number | null }>(
        `UPDATE orders.coupon SET uses = uses + 1 WHERE tenant_id = $1 AND lower(code) = lower($2) AND (expires_at IS NULL OR expires_at > now())
           AND (max_uses IS NULL OR uses < max_uses) AND (currency IS NULL OR currency = $3)
         RETURNING id, percent_off, amount_off::float8 AS amount_off`,
        [tenantId, input.coupon_code, currency],
      );
      if (!coupon)
        throw conflict(`coupon ${input.coupon_code} does not apply (unknown, expired, used up, or in another currency)`, {
          reason: 'not_applicable',
          field: 'coupon_code',
        });
      couponId = coupon.id;
      discount = Math.min(subtotal, coupon.percent_off !== null ? Math.floor((subtotal * coupon.percent_off) / 100) : (coupon.amount_off ?? 0));
    }
    // The coupon discounts the items only; shipping is its own line of the total.
    const total = subtotal - discount + shipping;
    if (!Number.isSafeInteger(total)) throw conflict('the order total is too large', { reason: 'out_of_range' });

    const orderId = newId('ord');
    const attemptId = app ? newId('pat') : null;
    await sql.run(
      `WITH o AS (
         INSERT INTO orders."order" (id, tenant_id, store_id, status, currency, subtotal_amount, discount_amount, total_amount, ` +
        `customer, shipping_address, coupon_id, reservation_id, metadata, shipping_method_id, shipping_amount)
         VALUES ($1, $2, $3, 'pending_payment', $4, $5, $6, $7, $8, $9, $10, $11, $12, $29, $30)),
       i AS (
         INSERT INTO orders.order_item (id, order_id, tenant_id, sku_id, product_id, code, title, qty, unit_amount, line_amount, position,
                                        weight_grams, length_cm, width_cm, height_cm)
         SELECT u.id, $1, $2, u.sku_id, u.product_id, u.code, u.title, u.qty, u.unit_amount, u.line_amount, u.position,
                u.weight_grams, u.length_cm, u.width_cm, u.height_cm
         FROM unnest($13::text[], $14::text[], $15::text[], $16::text[], $17::text[], $18::int[], $19::bigint[], $20::bigint[], $21::int[],
                     $25::bigint[], $26::bigint[], $27::bigint[], $28::bigint[])
           AS u(id, sku_id, product_id, code, title, qty, unit_amount, line_amount, position, weight_grams, length_cm, width_cm, height_cm))
       INSERT INTO orders.payment_attempt (id, tenant_id, order_id, app_id, method, status) SELECT $22, $2, $1, $23, $24, 'open' WHERE $22::text IS NOT NULL`,
      [
        orderId,
        tenantId,
        storeId,
        currency,
        subtotal,
        discount,
        total,
        JSON.stringify(input.customer),
        input.shipping_address ? JSON.stringify(input.shipping_address) : null,
        couponId,
        reservation.id,
        JSON.stringify(input.metadata ?? {}),
        lines.map(() => newId('oit')),
        lines.map((l) => l.sku_id),
        lines.map((l) => l.product_id),
        lines.map((l) => l.code),
        lines.map((l) => l.title),
        lines.map((l) => l.qty),
        lines.map((l) => l.unit_amount),
        lines.map((l) => l.line_amount),
        lines.map((l) => l.position),
        attemptId,
        input.payment?.app_id ?? null,
        input.payment?.method ?? null,
        // The SKUs' shipping attributes as the catalog gives them now (null: unknown).
        lines.map((l) => l.weight_grams ?? null),
        lines.map((l) => l.length_cm ?? null),
        lines.map((l) => l.width_cm ?? null),
        lines.map((l) => l.height_cm ?? null),
        input.shipping_method_id ?? null,
        shipping,
      ],
    );
    // Its first parcel: every item, at the hold's warehouse, not dispatched, dated by the method.
    const shipmentId = await insertShipment(db, {
      tenant_id: tenantId,
      order_id: orderId,
      warehouse_id: warehouseId,
      estimated_delivery_date: estimatedDeliveryDate,
    });
    const [{ payment_due_at }] = await refreshPaymentExpiry(db, tenantId, { orderIds: [orderId] });
    emit(inventoryReserved, { reservation_id: reservation.id, warehouse_id: warehouseId, items: reservation.items, expires_at: null, order_id: orderId });
    emit(orderCreated, {
      order_id: orderId,
      store_id: storeId,
      currency,
      total_amount: total,
      shipping_amount: shipping,
      items: input.items,
      reservation_id: reservation.id,
      payment_attempt_id: attemptId,
      customer: { email: input.customer.email, ...(input.customer.name ? { name: input.customer.name } : {}) },
    });
    return {
      order_id: orderId,
      status: 'pending_payment' as const,
      currency,
      subtotal_amount: subtotal,
      discount_amount: discount,
      shipping_amount: shipping,
      total_amount: total,
      reservation_id: reservation.id,
      payment_attempt_id: attemptId,
      // A predating or windowless order has no expiry.
      payment_expires_at: payment_due_at?.toISOString() ?? null,
      shipment_id: shipmentId,
      estimated_delivery_date: estimatedDeliveryDate,
    };
  },
});
