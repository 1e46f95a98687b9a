/**
 * Lot search's statement (docs/catalogue.md#what-a-search-costs). The lots a search may find are
 * chosen first, a bounded set read in an index's order (the candidates), and only then is each one
 * looked up by its key and checked against the filters, in that order on both stores, so that what a
 * search reads never grows with the catalogue and no plan reads the catalogue again for each lot,
 * whatever the planner believes of the tables (statistics gathered before the lots moved, say):
 *  - with words, the lots the store's `SearchPort.ranked` chooses (at most `countUpTo + 1`) among the
 *    matches in the status, category and auction asked for, whatever the sort;
 *  - without, the window: SEARCH_WINDOW lots in the `ending` order, in the category and auction asked
 *    for. For `open`, the first to end of the open auctions' lots that are for sale; for `ended`, the
 *    most recently ended: the lots sold by buy-now in auctions still open, then the lots of the
 *    auctions settled or past their end, the last to end first.
 */
import type { Dialect, Param, SqlRunner } from '../sql.js';
import type { Fragment } from './port.js';
import { SEARCH_WINDOW } from './query.js';

/** Lot search (docs/catalogue.md#search): what to find, in which order, from where. */
export interface LotSearch {
  /** The words all required (search/query.ts `queryWords`, at least one); null: no text search. */
  words: readonly string[] | null;
  /** A category and its subcategories; null: any. */
  categoryIds: readonly number[] | null;
  auctionId: string | null;
  /** Paise, on the lot's current price (its highest bid, else its starting price). */
  minPrice: number | null;
  maxPrice: number | null;
  /** Only lots that can be bought now. */
  buyNow: boolean;
  /** open: on sale now; ended: sold, or in an auction that is over. */
  status: 'open' | 'ended';
  sort: 'relevance' | 'ending' | 'price_asc' | 'price_desc' | 'bids';
  /** Where the page starts: after this lot in the order (its sort key and id). */
  after: LotSearchKey | null;
  limit: number;
  now: number;
}

/** A lot's place in a search's order: its sort key (an integer) and its id. */
export interface LotSearchKey {
  key: number;
  id: string;
}

/** A lot of the page: its id, its sort key, its auction. */
export interface LotSearchRow {
  id: string;
  k: number;
  auctionId: string;
  auctionName: string;
  validUntil: number;
}

/** Where the lookup reads a lot's auction: a join (or none) and the expressions of its columns. */
interface AuctionColumns {
  join: string;
  id: string;
  name: string;
  validUntil: string;
  settledAt: string;
  /** The condition that it is not deleted; '' when the candidates hold live auctions only. */
  live: string;
}

/** The lots a search may find (`from`, alias `c`), and how each is found again (`on`, for `products p`). */
interface Candidates {
  from: Fragment;
  on: string;
  /** What ranking each lot needs beside `products p` (a join), and its rank; none without words. */
  join: string;
  rank: Fragment | null;
  auction: AuctionColumns;
}

/** What each candidate is looked up with: a select list over `from`, and the conditions it must meet. */
interface Lookup {
  select: Fragment;
  from: string;
  where: Fragment;
}

const PRICE = 'coalesce(b.amount, p.starting_price)';
/** Each lot's auction by its key. */
const JOINED: AuctionColumns = { join: 'join auctions a on a.id = p.auction_id', id: 'a.id', name: 'a.name', validUntil: 'a.valid_until', settledAt: 'a.settled_at', live: 'a.deleted_at is null' };
/** The window's lots come with their auction, read as it was walked. */
const WALKED: AuctionColumns = { join: '', id: 'c.auction_id', name: 'c.auction_name', validUntil: 'c.valid_until', settledAt: 'c.settled_at', live: '' };

/**
 * A FROM item (alias `x`) of the rows of `lookup` for each row of `outer` (alias `c`), the outer rows
 * read first and in their order. PostgreSQL: LATERAL, with OFFSET 0 so that it is never pulled up into
 * a join the planner may turn around (`c` stays visible beside `x`). SQLite: CROSS JOIN, which keeps
 * its left side the outer loop (inside `x`).
 */
function eachRow(dialect: Dialect, outer: Fragment, lookup: Lookup): Fragment {
  if (dialect.name === 'postgres') {
    return {
      text: `${outer.text} cross join lateral (select ${lookup.select.text} from ${lookup.from} where ${lookup.where.text} offset 0) x`,
      params: [...outer.params, ...lookup.select.params, ...lookup.where.params],
    };
  }
  return {
    text: `(select ${lookup.select.text} from ${outer.text} cross join ${lookup.from} where ${lookup.where.text}) x`,
    params: [...lookup.select.params, ...outer.params, ...lookup.where.params],
  };
}

/** Whether the search is for ended lots, and how the window and `sort=ending` run: ended ones the most recent first. */
const endedFirst = (s: LotSearch) => s.status === 'ended';

/**
 * One walk of the window: the auctions that meet `auctions` (alias `wa`) in the order they end
 * (`dir`), sorted first, one row each; then each one's lots (`lots`, from `from`, with `p` the product),
 * by its index (by LATERAL on PostgreSQL and as the inner loop of a CROSS JOIN on SQLite), so that the
 * reading stops once SEARCH_WINDOW lots are read.
 */
function walk(dialect: Dialect, dir: 'asc' | 'desc', auctions: Fragment, from: string, lots: Fragment): Fragment {
  const walked = 'wa.id as auction_id, wa.name as auction_name, wa.valid_until, wa.settled_at';
  const byEnd = `(select wa.id, wa.name, wa.valid_until, wa.settled_at from auctions wa where ${auctions.text} order by wa.valid_until ${dir}`;
  const text = dialect.name === 'postgres'
    ? `select x.product_id, ${walked} from ${byEnd}) wa
        cross join lateral (select p.id as product_id from ${from} where ${lots.text} offset 0) x
        order by wa.valid_until ${dir}, x.product_id limit ?`
    // LIMIT -1 (none) keeps the auctions a subquery of their own, read in order by the outer loop.
    : `select p.id as product_id, ${walked} from ${byEnd} limit -1) wa
        cross join ${from} where ${lots.text} order by wa.valid_until ${dir}, p.id limit ?`;
  return { text, params: [...auctions.params, ...lots.params, SEARCH_WINDOW] };
}

/**
 * The window of a search without words: SEARCH_WINDOW lots in the `ending` order, with their auction.
 * For `open`, the lots for sale in the open auctions, the first to end first. For `ended`, the lots
 * that have ended, the most recently ended first: those sold by buy-now in auctions still open (found
 * by their auction's won bids, a few at most; their auctions end after every ended one), then the lots
 * of the auctions settled or past their end (which end no later than now), each walk stopping once
 * the window is full.
 */
function windowOf(dialect: Dialect, s: LotSearch): Candidates {
  const inAuction = (where: string[], params: Param[]): Fragment => {
    if (s.auctionId !== null) return { text: [...where, 'wa.id = ?'].join(' and '), params: [...params, s.auctionId] };
    return { text: where.join(' and '), params };
  };
  const lotsOf = (where: string[]): Fragment => s.categoryIds === null
    ? { text: where.join(' and '), params: [] }
    : { text: [...where, `p.category_id in (${s.categoryIds.map(() => '?').join(', ')})`].join(' and '), params: [...s.categoryIds] };
  const live = ['p.deleted_at is null'];
  let text: Fragment;
  if (!endedFirst(s)) {
    text = walk(dialect, 'asc', inAuction(['wa.deleted_at is null', 'wa.settled_at is null and wa.valid_until > ?'], [s.now]), 'products p',
      lotsOf(['p.auction_id = wa.id', ...live, "p.status = 'available'"]));
  } else {
    const sold = walk(dialect, 'desc', inAuction(['wa.deleted_at is null', 'wa.settled_at is null and wa.valid_until > ?'], [s.now]),
      dialect.name === 'postgres' ? 'bids b join products p on p.id = b.product_id' : 'bids b cross join products p',
      lotsOf(["b.auction_id = wa.id and b.status = 'won'", ...(dialect.name === 'postgres' ? [] : ['p.id = b.product_id']), "p.auction_id = wa.id and p.status = 'sold'", ...live]));
    const over = walk(dialect, 'desc', inAuction(['wa.deleted_at is null', '(wa.settled_at is not null or wa.valid_until <= ?)'], [s.now]), 'products p',
      lotsOf(['p.auction_id = wa.id', ...live]));
    text = {
      text: `select w.* from (select * from (${sold.text}) sold union all select * from (${over.text}) over) w
        order by w.valid_until desc, w.product_id limit ?`,
      params: [...sold.params, ...over.params, SEARCH_WINDOW],
    };
  }
  return { from: { text: `(${text.text}) c`, params: text.params }, on: 'p.id = c.product_id', join: '', rank: null, auction: WALKED };
}

/**
 * The condition on `products p` and its auction (`a`, columns `a`) that the search's status asks for:
 * for sale in an auction neither settled nor past its end (`open`), or ended (its auction settled or
 * past its end, or the lot sold).
 */
function statusOf(s: LotSearch, a: Pick<AuctionColumns, 'settledAt' | 'validUntil'>): Fragment {
  return s.status === 'open'
    ? { text: `${a.settledAt} is null and ${a.validUntil} > ? and p.status = 'available'`, params: [s.now] }
    : { text: `(${a.settledAt} is not null or ${a.validUntil} <= ? or p.status = 'sold')`, params: [s.now] };
}

/** What a ranked match must meet before it counts among the candidates: live, and the status, category and auction asked for. */
function amongOf(s: LotSearch): Fragment {
  const status = statusOf(s, JOINED);
  const where = ['p.deleted_at is null', 'a.deleted_at is null', status.text];
  const params = [...status.params];
  if (s.categoryIds !== null) { where.push(`p.category_id in (${s.categoryIds.map(() => '?').join(', ')})`); params.push(...s.categoryIds); }
  if (s.auctionId !== null) { where.push('p.auction_id = ?'); params.push(s.auctionId); }
  return { text: where.join(' and '), params };
}

/**
 * A page of the lots that match, in the search's order (its sort key, then id; keyset after `after`),
 * and how many of the candidates match in all, counted up to `countUpTo` (past it, one more).
 */
export async function lotSearchPage(sql: SqlRunner, dialect: Dialect, s: LotSearch, countUpTo: number): Promise<{ rows: LotSearchRow[]; total: number }> {
  if (s.categoryIds !== null && s.categoryIds.length === 0) return { rows: [], total: 0 };
  const candidates: Candidates = s.words === null ? windowOf(dialect, s) : { ...dialect.search.ranked(s.words, countUpTo + 1, amongOf(s)), auction: JOINED };
  const a = candidates.auction;
  const where = [candidates.on, 'p.deleted_at is null'];
  if (a.live !== '') where.push(a.live);
  const status = statusOf(s, a);
  where.push(status.text);
  const params: Param[] = [...status.params];
  if (s.categoryIds !== null) { where.push(`p.category_id in (${s.categoryIds.map(() => '?').join(', ')})`); params.push(...s.categoryIds); }
  if (s.auctionId !== null) { where.push('p.auction_id = ?'); params.push(s.auctionId); }
  if (s.minPrice !== null) { where.push(`${PRICE} >= ?`); params.push(s.minPrice); }
  if (s.maxPrice !== null) { where.push(`${PRICE} <= ?`); params.push(s.maxPrice); }
  if (s.buyNow) where.push("p.buy_now_price is not null and p.status = 'available' and (b.id is null or (p.reserve_price is not null and b.amount < p.reserve_price))");

  const ranked = candidates.rank !== null && s.sort === 'relevance';
  const byEnd = !ranked && s.sort !== 'price_asc' && s.sort !== 'price_desc' && s.sort !== 'bids';
  const key: Fragment = ranked ? candidates.rank! : { text: byEnd ? a.validUntil : s.sort === 'bids' ? 'p.bid_count' : PRICE, params: [] };
  // `ending`: the soonest to end first while open; once ended, the most recently ended first.
  const descending = ranked || s.sort === 'price_desc' || s.sort === 'bids' || (byEnd && endedFirst(s));
  const found = eachRow(dialect, candidates.from, {
    select: { text: `p.id, ${key.text} as k, ${a.id} as "auctionId", ${a.name} as "auctionName", ${a.validUntil} as "validUntil"`, params: key.params },
    from: `products p ${candidates.join} ${a.join} left join bids b on b.product_id = p.id and b.status in ('success', 'won')`,
    where: { text: where.join(' and '), params },
  });
  const afterParams: Param[] = s.after === null ? [] : [s.after.key, s.after.key, s.after.id];
  const columns = 'x.id, x.k, x."auctionId", x."auctionName", x."validUntil"';
  const rowsOf = (page: LotSearchRow[]) => page.map((r) => ({ id: r.id, k: Number(r.k), auctionId: r.auctionId, auctionName: r.auctionName, validUntil: Number(r.validUntil) }));

  if (s.words === null && byEnd) {
    // The window's own order: the page is read as the window is, stopping after it (PostgreSQL sees
    // that order on c's columns), and the count on its own, stopping at countUpTo + 1.
    const [k, id] = dialect.name === 'postgres' ? ['c.valid_until', 'c.product_id'] : ['x.k', 'x.id'];
    const after = s.after === null ? '' : `where ${k} ${descending ? '<' : '>'} ? or (${k} = ? and ${id} > ?)`;
    const page = await sql.all<LotSearchRow>(`select ${columns} from ${found.text} ${after} order by ${k} ${descending ? 'desc' : 'asc'}, ${id} limit ?`, [...found.params, ...afterParams, s.limit]);
    const n = await sql.get<{ n: number }>(`select count(*) as n from (select 1 as one from ${found.text} limit ?) t`, [...found.params, countUpTo + 1]);
    return { rows: rowsOf(page), total: Number(n?.n ?? 0) };
  }
  // Every candidate is read to sort them: the page and the count come from that one read.
  const after = s.after === null ? '' : `where y.k ${descending ? '<' : '>'} ? or (y.k = ? and y.id > ?)`;
  const page = await sql.all<LotSearchRow & { n: number }>(
    `select y.id, y.k, y."auctionId", y."auctionName", y."validUntil", y.n from (select ${columns}, count(*) over () as n from ${found.text}) y
      ${after} order by y.k ${descending ? 'desc' : 'asc'}, y.id asc limit ?`,
    [...found.params, ...afterParams, s.limit],
  );
  // A page past the end (a cursor after the last lot) counts on its own.
  const n = page.length > 0 ? page[0]!.n : (await sql.get<{ n: number }>(`select count(*) as n from ${found.text}`, found.params))?.n;
  return { rows: rowsOf(page), total: Math.min(Number(n ?? 0), countUpTo + 1) };
}
