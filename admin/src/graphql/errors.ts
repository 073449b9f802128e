import type { CombinedError } from '@urql/core';

/** One refusal in words, as the gateway gave it (`extensions.reason` and `field`: docs/admin-graphql.md, Errors). */
export interface Refusal {
  message: string;
  code?: string;
  reason?: string;
  /** The input path the refusal is about, without the argument's name: `store`, `items[1].qty`. */
  field?: string;
}

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Every refusal an error holds; a network failure is one refusal with no code. */
export function refusals(error: CombinedError): Refusal[] {
  if (error.graphQLErrors.length === 0) return [{ message: error.networkError?.message ?? error.message }];
  return error.graphQLErrors.map((e) => {
    const field = text(e.extensions?.field);
    return {
      message: e.message,
      code: text(e.extensions?.code),
      reason: text(e.extensions?.reason),
      field: field?.replace(/^input\./, ''),
    };
  });
}

/** The refusals about a field, by field (for messages next to the form's inputs), and the rest. */
export function byField(list: readonly Refusal[]): { fields: Record<string, string>; others: Refusal[] } {
  const fields: Record<string, string> = {};
  const others: Refusal[] = [];
  for (const refusal of list) {
    if (refusal.field && !(refusal.field in fields)) fields[refusal.field] = refusal.message;
    else others.push(refusal);
  }
  return { fields, others };
}

/** As byField, with a list item's refusal (`scopes[2]`) on the list's own input (`scopes`). */
export function byListField(list: readonly Refusal[]): { fields: Record<string, string>; others: Refusal[] } {
  const found = byField(list);
  const fields: Record<string, string> = {};
  for (const [path, message] of Object.entries(found.fields)) fields[path.replace(/\[\d+\]$/, '')] ??= message;
  return { fields, others: found.others };
}
