import { forbidden, unauthorized, type SubgraphContext, sqlOf } from '@backoffice/platform';
import DataLoader from 'dataloader';
import type { DataSource } from 'typeorm';
import { documentSql, shapeItems, shapeSku, type Row } from './product-document';

const { productColumns, skuObject } = documentSql(true);

interface Loaders {
  products: DataLoader<string, Row | null>;
  skus: DataLoader<string, Record<string, unknown> | null>;
}

/** One set of loaders per request: references to many products cost one statement, not one each. */
const perRequest = new WeakMap<SubgraphContext, Loaders>();

function loaders(context: SubgraphContext, dataSource: DataSource, tenantId: string): Loaders {
  let found = perRequest.get(context);
  if (!found) {
    const byId = <T extends { _id: string }>(rows: T[], ids: readonly string[]) => {
      const map = new Map(rows.map((r) => [r._id, r]));
      return ids.map((id) => map.get(id) ?? null);
    };
    found = {
      products: new DataLoader(async (ids) => {
        const rows = await sqlOf(dataSource).rows<Row & { _id: string }>(
          `SELECT p.id AS _id, ${productColumns} FROM catalog.product p WHERE p.id = ANY($1::text[]) AND p.tenant_id = $2`,
          [ids, tenantId],
        );
        return byId(shapeItems(rows) as (Row & { _id: string })[], ids).map((row) => row && strip(row));
      }),
      skus: new DataLoader(async (ids) => {
        const rows = await sqlOf(dataSource).rows<{ _id: string; doc: Record<string, unknown> }>(
          `SELECT s.id AS _id, ${skuObject} AS doc FROM catalog.sku s WHERE s.id = ANY($1::text[]) AND s.tenant_id = $2`,
          [ids, tenantId],
        );
        return byId(rows, ids).map((row) => row && shapeSku(row.doc));
      }),
    };
    perRequest.set(context, found);
  }
  return found;
}

function strip(row: Row & { _id?: string }): Row {
  delete row._id;
  return row;
}

/**
 * Products and SKUs are federation entities: another subgraph (orders) names them by key and the
 * gateway asks the catalog for the rest. The caller needs the admin read's scope (the documents are
 * the full ones, drafts included) and only its tenant is searched (another tenant's is null). A
 * caller without the scope gets `forbidden` naming it on the field, beside the rest of its answer.
 */
export function referenceResolvers({ dataSource }: { dataSource: DataSource }) {
  // Async, so a refusal is the one reference's (null, with its error), never the whole `_entities` list's.
  const resolve = (kind: keyof Loaders, key: 'product_id' | 'sku_id') => async (reference: Record<string, string>, context: SubgraphContext) => {
    const actor = context.call?.actor;
    if (!actor) throw unauthorized().toGraphQLError();
    if (!actor.scopes.includes('catalog.admin.read')) throw forbidden('catalog.admin.read').toGraphQLError();
    return loaders(context, dataSource, actor.tenant_id)[kind].load(reference[key]);
  };
  return {
    Product: { __resolveReference: resolve('products', 'product_id') },
    Sku: { __resolveReference: resolve('skus', 'sku_id') },
  };
}
