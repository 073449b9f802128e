/**
 * The rows a statement gave back. TypeORM answers an UPDATE or DELETE with `[rows, count]` and a
 * SELECT or INSERT with the rows alone: this takes either, so a `... RETURNING` reads the same way.
 */
export function returningRows<T>(result: unknown): T[] {
  const value = result as unknown[];
  const pair = Array.isArray(value) && value.length === 2 && Array.isArray(value[0]) && typeof value[1] === 'number';
  return (pair ? value[0] : value) as T[];
}
