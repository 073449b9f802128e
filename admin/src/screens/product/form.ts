import type { CombinedError } from '@urql/core';
import type { ProductPageQuery } from '../../gql/graphql';
import { byField, type Refusal, refusals } from '../../graphql/errors';

/** The product as the editor reads it (ProductPage with ProductPageGaps). */
export type Product = NonNullable<ProductPageQuery['catalog_product']>;
export type Sku = Product['skus'][number];
export type Choices = {
  brands: Array<{ id: string; name: string }>;
  categories: Array<{ id: string; path: string; name: string }>;
  stores: Array<{ id: string; handle: string; name: string }>;
  warehouses: Array<{ id: string; code: string; name: string }>;
};

/**
 * A mutation's outcome split for a form: refusals by field (shown on their input) and the rest (an
 * alert). Given the fields the form shows, a refusal about a part of one (`values[1]`) shows on it, and
 * a refusal about any other field joins the rest, so none is lost.
 */
export function outcome(error: CombinedError | undefined, shown?: readonly string[]): { fields: Record<string, string>; others: Refusal[] } {
  if (!error) return { fields: {}, others: [] };
  const found = byField(refusals(error));
  if (!shown) return found;
  const fields: Record<string, string> = {};
  const others = [...found.others];
  for (const [field, message] of Object.entries(found.fields)) {
    const top = field.split(/[.[]/)[0];
    if (shown.includes(top)) fields[top] ??= message;
    else others.push({ message, field });
  }
  return { fields, others };
}

/** An integer typed into a field, or undefined when the field is empty; a value that is not an integer is sent as typed (the server names it). */
export function integer(value: string): number | undefined {
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  const n = Number(trimmed);
  return Number.isFinite(n) ? n : (trimmed as unknown as number);
}
export const nullableInteger = (value: string) => integer(value) ?? null;
export const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));
