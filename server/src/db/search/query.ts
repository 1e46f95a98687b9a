/**
 * What a lot search asks for (docs/catalogue.md#search): the words of a query, as both stores read
 * them, and how far a search without words reads.
 */

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
