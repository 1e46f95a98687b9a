/**
 * The one seam between the stores and their drivers: portable SQL text with `?` placeholders, run
 * by a connection (or a transaction on it). Everything above this file is written once and runs on
 * both SQLite and PostgreSQL; what the dialects do differently is named in `Dialect`.
 */

import type { SearchPort } from './search/port.js';

export { likePattern, marks, type Param, type SqlRunner } from './sql-runner.js';

export interface Dialect {
  readonly name: 'sqlite' | 'postgres';
  /**
   * Appended to a SELECT of rows the transaction will change: PostgreSQL locks them until commit
   * (`for no key update`); SQLite has one writer at a time, so it needs nothing.
   */
  readonly forUpdate: string;
  /**
   * Appended to a SELECT that claims rows of `alias` to work on: PostgreSQL locks them and skips rows
   * another transaction holds (`for update of … skip locked`); SQLite's one writer needs nothing.
   */
  claim(alias: string): string;
  /** The column that orders rows created in the same millisecond by insertion (alias `p` → `p.rowid`). */
  insertionOrder(alias: string): string;
  /**
   * A scalar subquery giving the JSON array (as text) of `column` over the rows of `from` (a FROM …
   * WHERE … clause without ORDER BY), ordered by `orderBy`; `'[]'` when there are none.
   */
  jsonArray(column: string, from: string, orderBy: string): string;
  /**
   * A statement that serialises admin sign-ups until commit, so exactly one first admin becomes the
   * owner; null where transactions are serial anyway (SQLite).
   */
  readonly adminSignupLock: string | null;
  /** A statement that serialises product imports until commit; null where transactions are serial anyway (SQLite). */
  readonly productImportLock: string | null;
  /** A statement that serialises houses choosing an invoice prefix until commit; null where transactions are serial anyway (SQLite). */
  readonly invoicePrefixLock: string | null;
  /**
   * Run in the transaction after a bulk insert of products (the import): PostgreSQL's planner needs
   * fresh statistics once a table has grown by thousands of rows at once (until the autovacuum daemon's
   * next pass, or never where it is off, its lot search and category filters pick plans that walk the
   * whole table); null where the planner needs none (SQLite).
   */
  readonly afterBulkInsert: string | null;
  /** The store's lot search (search/port.ts, docs/catalogue.md#search). */
  readonly search: SearchPort;
}
