/**
 * A statement's conditions (or assignments) and the values they name, numbered as they are added, so
 * no placeholder is counted by hand:
 *
 *   const where = conditions();
 *   where.add`o.tenant_id = ${tenantId}`;
 *   if (status) where.add`o.status = ${status}`;
 *   where.sql;    // 'o.tenant_id = $1 AND o.status = $2'
 *   where.params; // [tenantId, status]
 *
 * A text depends only on which parts were added, never on their values: one text per shape, as a
 * statement kept prepared under its text's name needs (`Sql.prepared`).
 */

/** Text written into a statement as it is: a placeholder, or SQL from the code's own constants (a column, a condition), never input. */
export class SqlText {
  constructor(private readonly text: string) {}

  toString(): string {
    return this.text;
  }
}

export const sqlText = (text: string): SqlText => new SqlText(text);

/** Parts joined by a separator (AND, a comma), and the values their placeholders stand for. */
export class Clause {
  readonly params: unknown[];
  private readonly parts: string[] = [];

  /** `params`: values the statement already has (`$1` to `$n`); the clause's own follow them. */
  constructor(
    private readonly separator: string,
    params: readonly unknown[] = [],
  ) {
    this.params = [...params];
  }

  /** The next value's placeholder: for a value written twice, or in the text around the clause (a LIMIT). */
  param(value: unknown): SqlText {
    return sqlText(`$${this.params.push(value)}`);
  }

  /** Adds a part: each `${value}` in it becomes the next placeholder; a SqlText (a placeholder given before) is written as it is. */
  add(strings: TemplateStringsArray, ...values: unknown[]): this {
    this.parts.push(strings.reduce((text, string, i) => `${text}${this.placed(values[i - 1])}${string}`));
    return this;
  }

  /** The parts joined, in the order added. */
  get sql(): string {
    return this.parts.join(this.separator);
  }

  private placed(value: unknown): SqlText {
    return value instanceof SqlText ? value : this.param(value);
  }
}

/** Conditions joined by AND (a WHERE's), after the values the statement already has. */
export const conditions = (params?: readonly unknown[]): Clause => new Clause(' AND ', params);

/** Assignments joined by commas (an UPDATE's SET). */
export const assignments = (): Clause => new Clause(', ');
