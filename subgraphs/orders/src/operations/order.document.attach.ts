import { assertRoom, conflict, lockCollection, newId, t, validationFailed, sqlOf } from '@backoffice/platform';
import { ORDER_LIMITS } from '../domain/order-limits';
import { documentKind, httpUrlField, orderForShipping, requireHttpUrl } from '../domain/shipments';
import { orderDocumentAttached } from '../events';
import { defineOrdersOperation } from '../ports';

export const orderDocumentAttach = defineOrdersOperation({
  name: 'order.document.attach',
  kind: 'command',
  idempotent: true,
  access: 'internal',
  scope: 'order.write',
  summary:
    'Attaches an already-issued document to an order (or one of its parcels) by external URL or asset reference. ' +
    'Re-attaching the same document (same kind, same `file_url` or `asset_id`, same `shipment_id`) succeeds with no ' +
    'change and no event, `attached: false` and the existing `document_id`; there is no remove.',
  input: t.object({
    order_id: t.id(),
    kind: documentKind,
    asset_id: t.optional(t.id('an asset reference; exactly one of asset_id and file_url')),
    file_url: t.optional(httpUrlField('exactly one of file_url and asset_id')),
    name: t.optional(t.string({ minLength: 1, maxLength: 200 })),
    shipment_id: t.optional(t.id('a parcel of the order the document belongs to')),
    metadata: t.optional(t.record({ description: 'kept with the document' })),
  }),
  result: t.object({
    document_id: t.string(),
    order_id: t.string(),
    kind: t.string(),
    attached: t.boolean({ description: 'true when this call attached it; false when the same document was attached already (nothing changed)' }),
  }),
  events: [orderDocumentAttached],
  async handler({ input, actor, db, emit }) {
    if ((input.file_url === undefined) === (input.asset_id === undefined))
      throw validationFailed('give exactly one of file_url and asset_id', { reason: 'invalid_combination', field: 'file_url' });
    if (input.file_url !== undefined) requireHttpUrl('file_url', input.file_url);
    const order = await orderForShipping(db, actor.tenant_id, input.order_id);
    if (input.shipment_id) {
      // Share-locked: a split cannot delete the shipment while a document is attached to it.
      const shipment = await sqlOf(db).one<{ id: string }>(`SELECT id FROM orders.shipment WHERE id = $1 AND order_id = $2 FOR SHARE`, [
        input.shipment_id,
        order.id,
      ]);
      if (!shipment) throw conflict(`shipment ${input.shipment_id} is not a parcel of order ${order.id}`, { reason: 'not_found', field: 'shipment_id' });
    }
    const document = {
      document_id: newId('doc'),
      order_id: order.id,
      kind: input.kind,
      shipment_id: input.shipment_id ?? null,
      name: input.name ?? null,
      file_url: input.file_url ?? null,
      asset_id: input.asset_id ?? null,
    };
    // Attaching the same document again changes nothing, so the limit is checked once a new one is written.
    await lockCollection(db, `orders.order_document:${order.id}`);
    // The unique index on (order, kind, shipment, URL or asset) makes a concurrent twin wait, then do nothing.
    const made = await sqlOf(db).rows<unknown>(
      `INSERT INTO orders.order_document (id, tenant_id, order_id, kind, file_url, asset_id, name, shipment_id, metadata)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING id`,
      [
        document.document_id,
        order.tenant_id,
        order.id,
        input.kind,
        document.file_url,
        document.asset_id,
        document.name,
        document.shipment_id,
        JSON.stringify(input.metadata ?? {}),
      ],
    );
    if (!made.length) {
      const [existing] = await sqlOf(db).rows<{ id: string }>(
        `SELECT id FROM orders.order_document WHERE order_id = $1 AND kind = $2 AND coalesce(shipment_id, '') = $3 AND (file_url IS NULL) = $4 AND md5(coalesce(file_url, asset_id)) = md5($5)`,
        [order.id, input.kind, document.shipment_id ?? '', document.file_url === null, document.file_url ?? document.asset_id],
      );
      return { document_id: existing.id, order_id: order.id, kind: input.kind, attached: false };
    }
    await assertRoom(db, ORDER_LIMITS.documents, {
      sql: 'SELECT count(*)::int AS n FROM orders.order_document WHERE order_id = $1',
      params: [order.id],
      adding: 0,
    });
    emit(orderDocumentAttached, document);
    return { document_id: document.document_id, order_id: order.id, kind: input.kind, attached: true };
  },
});
