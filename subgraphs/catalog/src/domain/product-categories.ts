import { validationFailed, t } from '@backoffice/platform';
import { CATALOG_LIMITS } from './catalog-limits';

export const categoriesInput = () =>
  t.array(t.object({ category_id: t.id(), is_primary: t.optional(t.boolean()) }), { maxItems: CATALOG_LIMITS.categories.max });

/** One primary at most; with none marked, the first is primary. Duplicates are refused. */
export function placeCategories(categories: { category_id: string; is_primary?: boolean }[]): { category_id: string; is_primary: boolean }[] {
  const ids = categories.map((c) => c.category_id);
  if (new Set(ids).size !== ids.length) throw validationFailed('categories lists a category twice', { reason: 'duplicate', field: 'categories' });
  const primaries = categories.filter((c) => c.is_primary).length;
  if (primaries > 1) throw validationFailed('categories may have one primary category at most', { reason: 'invalid_combination', field: 'categories' });
  return categories.map((c, i) => ({ category_id: c.category_id, is_primary: primaries ? !!c.is_primary : i === 0 }));
}

/** Params: product id, tenant id, category ids, primary flags. A plain INSERT, so it can be staged. */
export const INSERT_CATEGORIES = `
  INSERT INTO catalog.product_category (product_id, category_id, tenant_id, is_primary)
  SELECT $1, c, $2, p FROM unnest($3::text[], $4::boolean[]) AS x(c, p)`;
