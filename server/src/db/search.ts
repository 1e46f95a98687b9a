/**
 * The lot search port (docs/catalogue.md#search): full text over a lot's name and description and
 * its auction's name, one implementation per store (sqlite/search.ts: FTS5 with the porter stemmer
 * and bm25; postgres/search.ts: an English `tsvector` with a GIN index and ts_rank). The unit of work
 * keeps the index in step with every product and auction change, in the same transaction; the reads
 * ask it how to match and rank a query.
 */
import type { Param, SqlRunner } from './sql.js';

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

/**
 * English words too common to search by, dropped from every query before either store sees it: a
 * query of only these (or of symbols) matches nothing. Exactly the list PostgreSQL's `english`
 * configuration drops (its `english.stop`, which has `s`, `t` and `don` for "it's", "don't"), so that
 * `plainto_tsquery` never drops a word SQLite would still require: both stores answer the same query.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(`a about above after again against all am an and any are as at be because been
  before being below between both but by can did do does doing don down during each few for from further had has have having he
  her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not now of off on
  once only or other our ours ourselves out over own s same she should so some such t than that the their theirs them themselves
  then there these they this those through to too under until up very was we were what when where which while who whom why will
  with you your yours yourself yourselves`.split(/\s+/));

/** At most this many words of a query count. */
export const QUERY_WORDS_MAX = 16;

/** The words a query asks for: runs of letters and digits, lower-cased, stop words dropped, each once. */
export function queryWords(q: string): string[] {
  const words = q.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => !STOP_WORDS.has(w)))].slice(0, QUERY_WORDS_MAX);
}

/** A search without words reads at most this many lots, the first to end (docs/catalogue.md#what-a-search-costs). */
export const SEARCH_WINDOW = 5000;

export { marks } from './sql.js';
