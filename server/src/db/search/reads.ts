/**
 * The catalogue's search (docs/catalogue.md#search).
 * Its reads, one slice of Reads (reads.ts).
 */
import { readProducts } from '../catalogue/product-views.js';
import { SqlSlice } from '../slice.js';
import type { Dialect, Param, SqlRunner } from '../sql.js';
import { type LotSearch, type LotSearchKey, lotSearchPage } from './lot-search.js';
import type { AuctionCountsFilter, AuctionSearch, AuctionTabCounts, LotSearchHit } from './types.js';

/** A filter by lots: the auctions its lots are in (`from`), checked per auction (`probeFrom`). */
interface LotFilter {
  from: string;
  probeFrom: string;
  text: string;
  values: Param[];
}

/** The lot filters of a search of auctions (words, category), in order; null when its category has none. */
function lotFilters(d: Dialect, s: AuctionCountsFilter): LotFilter[] | null {
  const filters: LotFilter[] = [];
  if (s.words !== null) {
    const m = d.search.match(s.words);
    filters.push({ from: `from products p ${m.join}`, probeFrom: `from products p ${m.probeJoin}`, text: m.where.text, values: m.where.params });
  }
  if (s.categoryIds !== null) {
    if (s.categoryIds.length === 0) return null;
    filters.push({ from: 'from products p', probeFrom: 'from products p', text: `p.category_id in (${s.categoryIds.map(() => '?').join(', ')})`, values: [...s.categoryIds] });
  }
  return filters;
}

/** Each lot filter as a list of the auctions its lots are in. */
const listedBy = (f: LotFilter) => `a.id in (select p.auction_id ${f.from} where p.deleted_at is null and ${f.text})`;

/** The condition that the auction is one the bidder registered for. */
const REGISTERED = 'a.id in (select r.auction_id from registrations r where r.user_id = ?)';

const OPEN = 'a.settled_at is null and a.valid_until > ?';

const SOON = `${OPEN} and a.valid_until <= ?`;

const OVER = '(a.settled_at is not null or a.valid_until <= ?)';

/** A words or category filter matched by at least this many lots is checked per auction in the page's order. */
const DENSE_FILTER_LOTS = 500;

/** How many auctions of the tab, in the page's order, a dense filter is checked on before the page is read from the filter's list. */
const PROBED_AUCTIONS = 200;

/** Whether `select` (rows of a filter) gives fewer than `n` rows; it reads at most `n`. */
async function fewerThan(sql: SqlRunner, select: string, params: Param[], n: number): Promise<boolean> {
  const row = await sql.get<{ n: number }>(`select count(*) as n from (${select} limit ?) t`, [...params, n]);
  return Number(row?.n ?? 0) < n;
}

export class SearchReads extends SqlSlice {
  /**
   * A page of the lots that match, in the search's order (each sort key, then id; keyset after
   * `after`), and how many match in all, counted up to `countUpTo` (past it, one more).
   */
  async searchLots(s: LotSearch, countUpTo: number): Promise<{ hits: LotSearchHit[]; total: number }> {
    // The statement and what it reads: lot-search.ts (docs/catalogue.md#what-a-search-costs).
    const { rows: page, total } = await lotSearchPage(this.sql, this.dialect, s, countUpTo);
    const views = page.length === 0 ? [] : await readProducts(this.sql, this.dialect, `p.id in (${page.map(() => '?').join(', ')})`, 'p.id', page.map((r) => r.id), s.now);
    const byId = new Map(views.map((v) => [v.id, v]));
    const hits = page.flatMap((r) => {
      const product = byId.get(r.id);
      return product ? [{ product, auction: { id: r.auctionId, name: r.auctionName, validUntil: Number(r.validUntil) }, key: { key: Number(r.k), id: r.id } }] : [];
    });
    return { hits, total };
  }

  /**
   * A page of auctions in the tab, in the order asked (its key, then id; keyset after `after`), with
   * the page's keys. Its counts per tab under the same filters: `auctionTabCounts`.
   *
   * A filter by words or category that many lots match is checked per auction, walking the auctions in
   * the page's order (an index serves it), so the read stops after a page; one that few lots match
   * lists those lots' auctions first.
   */
  async searchAuctions(s: AuctionSearch): Promise<{ ids: string[]; keys: LotSearchKey[] }> {
    const filters = lotFilters(this.dialect, s);
    if (filters === null) return { ids: [], keys: [] };
    // Each filter as a list of the auctions its lots are in (`listed`), and for the dense ones as a check per auction (`probed`).
    const listed: string[] = ['a.deleted_at is null'];
    const probed: string[] = ['a.deleted_at is null'];
    const params: Param[] = [];
    let dense = false;
    // PostgreSQL turns an EXISTS into a join over every row it names unless it has an OFFSET: this keeps it a check per auction.
    const perAuction = this.dialect.name === 'postgres' ? ' offset 0' : '';
    for (const f of filters) {
      const list = listedBy(f);
      listed.push(list);
      if (await fewerThan(this.sql, `select 1 ${f.from} where p.deleted_at is null and ${f.text}`, f.values, DENSE_FILTER_LOTS)) probed.push(list);
      else {
        dense = true;
        probed.push(`exists (select 1 ${f.probeFrom} where p.auction_id = a.id and p.deleted_at is null and ${f.text}${perAuction})`);
      }
      params.push(...f.values);
    }
    if (s.registeredBy !== null) {
      listed.push(REGISTERED);
      probed.push(REGISTERED);
      params.push(s.registeredBy);
    }
    const tab = s.tab === 'active' ? { text: OPEN, params: [s.now] } : s.tab === 'ending' ? { text: SOON, params: [s.now, s.now + s.endingWithin] } : { text: OVER, params: [s.now] };
    const bids = '(select coalesce(sum(p.bid_count), 0) from products p where p.auction_id = a.id and p.deleted_at is null)';
    const key = s.sort === 'newest' ? 'a.created_at' : s.sort === 'bids' ? bids : 'a.valid_until';
    // Ending soonest first while open; once over, the most recently ended first.
    const descending = s.sort !== 'ending' || s.tab === 'ended';
    // Written as a range on the key (and a tie-break) so that an index on the key can start there.
    const after = s.after === null ? '' : `and ${key} ${descending ? '<=' : '>='} ? and (${key} ${descending ? '<' : '>'} ? or a.id > ?)`;
    const afterParams: Param[] = s.after === null ? [] : [s.after.key, s.after.key, s.after.id];
    const order = `order by k ${descending ? 'desc' : 'asc'}, a.id asc`;
    type Row = { id: string; k: number };
    let page: Row[] | null = null;
    if (dense) {
      // The first PROBED_AUCTIONS auctions of the tab in the page's order, each checked: a dense filter fills a page from them.
      const walked = await this.sql.all<Row>(
        `select a.id, x.k from (select a.id, ${key} as k from auctions a where a.deleted_at is null and ${tab.text} ${after} ${order} limit ?) x
         join auctions a on a.id = x.id where ${probed.join(' and ')} order by x.k ${descending ? 'desc' : 'asc'}, a.id asc limit ?`,
        [...tab.params, ...afterParams, PROBED_AUCTIONS, ...params, s.limit],
      );
      if (walked.length === s.limit) page = walked;
    }
    page ??= await this.sql.all<Row>(
      `select a.id, ${key} as k from auctions a where ${listed.join(' and ')} and ${tab.text} ${after} ${order} limit ?`,
      [...params, ...tab.params, ...afterParams, s.limit],
    );
    return { ids: page.map((r) => r.id), keys: page.map((r) => ({ key: Number(r.k), id: r.id })) };
  }

  /**
   * The number of auctions in each tab under the filters of a search of auctions (`searchAuctions`),
   * in one statement.
   */
  async auctionTabCounts(s: AuctionCountsFilter): Promise<AuctionTabCounts> {
    const filters = lotFilters(this.dialect, s);
    if (filters === null) return { active: 0, ending: 0, ended: 0 };
    const listed = ['a.deleted_at is null', ...filters.map(listedBy), ...(s.registeredBy === null ? [] : [REGISTERED])];
    const params = [...filters.flatMap((f) => f.values), ...(s.registeredBy === null ? [] : [s.registeredBy])];
    const row = await this.sql.get<AuctionTabCounts>(
      `select coalesce(sum(case when ${OPEN} then 1 else 0 end), 0) as active, coalesce(sum(case when ${SOON} then 1 else 0 end), 0) as ending,
        coalesce(sum(case when ${OVER} then 1 else 0 end), 0) as ended
       from auctions a where ${listed.join(' and ')}`,
      [s.now, s.now, s.now + s.endingWithin, s.now, ...params],
    );
    return { active: Number(row?.active ?? 0), ending: Number(row?.ending ?? 0), ended: Number(row?.ended ?? 0) };
  }
}
