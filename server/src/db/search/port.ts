/**
 * The lot search port (docs/catalogue.md#search): full text over a lot's name and description and
 * its auction's name, one implementation per store (sqlite/search.ts: FTS5 with the porter stemmer
 * and bm25; postgres/search.ts: an English `tsvector` with a GIN index and ts_rank). The unit of work
 * keeps the index in step with every product and auction change, in the same transaction; the reads
 * ask it how to match and rank a query.
 */
import type { Param, SqlRunner } from '../sql-runner.js';

/** A fragment of SQL and the values of its `?` placeholders, in order. */
export interface Fragment {
  text: string;
  params: Param[];
}

export interface SearchPort {
  /**
   * Indexes these products afresh as they are now (deleted ones leave the index); run inside the
   * writing transaction. PostgreSQL then refreshes the planner's statistics of the tables a search
   * reads where enough changes have made them stale (lots moved into auctions after an import analysed
   * them in none).
   */
  refreshProducts(sql: SqlRunner, ids: readonly string[]): Promise<void>;
  /**
   * Indexes products just inserted in this transaction (in no auction yet, so none is in the index):
   * one statement, then PostgreSQL's check of its statistics as `refreshProducts` does.
   */
  indexNewProducts(sql: SqlRunner, ids: readonly string[]): Promise<void>;
  /** The same for the live products of these auctions (an auction renamed). */
  refreshAuctions(sql: SqlRunner, auctionIds: readonly string[]): Promise<void>;
  /**
   * How to find the lots (`products p`) that match every one of `words` (from queryWords, at least one):
   * a join to add after `from products p`, a condition, and an integer rank (higher is better; name
   * matches rank above description and auction-name matches). `probeJoin`: the same join for a
   * subquery whose products are already narrowed down (one auction's lots), so that the store checks
   * those few lots against the index rather than reading every match.
   */
  match(words: readonly string[]): { join: string; probeJoin: string; where: Fragment; rank: Fragment };
  /**
   * The lots a search by words may find, at most `n` of those that match every one of `words` and meet
   * `among` (a condition on `auctions a` and on `p.auction_id`, `p.category_id`, `p.status` and
   * `p.deleted_at` of its product: the search's status, category and auction), each match looked up by
   * its key to check it (lot-search.ts then reads them, and looks
   * each one up again for the rest of the filters): on SQLite the n best by bm25 (FTS5 scores the
   * matches itself); on PostgreSQL lots with every word in their name first, then the other matches as
   * stored, so that ranking reads at most n documents. No other lot that matches is ranked. `from`: a
   * subquery of them, alias `c`; `on`: the condition that finds a lot `products p` of it; `join`: what
   * ranking a lot needs beside `products p`; `rank`: as `match` ranks (an integer, higher is better).
   */
  ranked(words: readonly string[], n: number, among: Fragment): { from: Fragment; on: string; join: string; rank: Fragment };
}
