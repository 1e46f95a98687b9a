/**
 * The SQL primitives every statement is written with: a bound value and what runs a statement. They
 * import nothing, so that the search port (search/port.ts) and the dialect (sql.ts, which holds the
 * port) both build on them without a cycle.
 */

/** A bound value. Booleans are stored as 0/1 by SQLite and as booleans by PostgreSQL; a Buffer as a BLOB / bytea (photos). */
export type Param = string | number | boolean | null | Buffer;

const MARKS: string[] = [];
/** `?, ?, ?`: n placeholders (the short lists a bid uses are built once). */
export function marks(n: number): string {
  if (n > 64) return Array.from({ length: n }, () => '?').join(', ');
  return (MARKS[n] ??= Array.from({ length: n }, () => '?').join(', '));
}

export interface SqlRunner {
  /** Every row. Integer columns (ids, paise, ms, counts, sums) come back as JS numbers on both stores. */
  all<T>(text: string, params?: readonly Param[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T>(text: string, params?: readonly Param[]): Promise<T | undefined>;
  /** Runs a statement; resolves with the number of rows it changed. */
  run(text: string, params?: readonly Param[]): Promise<number>;
}

/** A LIKE pattern (with `escape '\\'`) for text that contains `term` as typed (its `%`, `_` and `\\` taken literally). */
export function likePattern(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
