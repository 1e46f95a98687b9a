/**
 * Lot search on SQLite (docs/catalogue.md#search): the FTS5 table `lot_search` (columns name,
 * description, auction_name; the porter stemmer over unicode61 words), one row per live product under
 * the product's rowid. bm25 ranks, name first (weights 10, 2, 1).
 */
import type { SearchPort } from '../search/port.js';
import { marks } from '../sql.js';

const INSERT = `insert into lot_search (rowid, name, description, auction_name)
  select p.rowid, p.name, p.description, coalesce(a.name, '') from products p left join auctions a on a.id = p.auction_id`;

/** bm25 with the name weighted 10, the description 2, the auction's name 1; higher is better, as an integer. */
const BM25 = 'cast(round(-bm25(lot_search, 10.0, 2.0, 1.0) * 1000000) as integer)';

/** Each word a quoted string (letters and digits only, so nothing to escape): all of them required. */
const ftsQuery = (words: readonly string[]) => words.map((w) => `"${w}"`).join(' ');

export const sqliteSearch: SearchPort = {
  async refreshProducts(sql, ids) {
    if (ids.length === 0) return;
    await sql.run(`delete from lot_search where rowid in (select p.rowid from products p where p.id in (${marks(ids.length)}))`, ids);
    await sql.run(`${INSERT} where p.id in (${marks(ids.length)}) and p.deleted_at is null`, ids);
  },
  async indexNewProducts(sql, ids) {
    if (ids.length === 0) return;
    await sql.run(`${INSERT} where p.id in (${marks(ids.length)})`, ids);
  },
  async refreshAuctions(sql, auctionIds) {
    if (auctionIds.length === 0) return;
    const where = `p.auction_id in (${marks(auctionIds.length)}) and p.deleted_at is null`;
    await sql.run(`delete from lot_search where rowid in (select p.rowid from products p where ${where})`, auctionIds);
    await sql.run(`${INSERT} where ${where}`, auctionIds);
  },
  match(words) {
    const query = ftsQuery(words);
    return {
      join: 'join lot_search on lot_search.rowid = p.rowid',
      // CROSS JOIN keeps the products as the outer loop: each lot is looked up in the index by rowid.
      probeJoin: 'cross join lot_search on lot_search.rowid = p.rowid',
      where: { text: 'lot_search match ?', params: [query] },
      rank: { text: BM25, params: [] },
    };
  },
  ranked(words, n, among) {
    return {
      // The n best by bm25 of the matches that meet `among`: FTS5 scores every match in its own loop
      // (about 25 ms for 30,000), the outer loop (CROSS JOIN), each one's product and auction looked up
      // by key, so the best lots are never left out for being old, nor crowded out by ended ones.
      from: {
        text: `(select lot_search.rowid as product_rowid, ${BM25} as rank from lot_search
          cross join products p on p.rowid = lot_search.rowid cross join auctions a on a.id = p.auction_id
          where lot_search match ? and ${among.text}
          order by bm25(lot_search, 10.0, 2.0, 1.0) limit ?) c`,
        params: [ftsQuery(words), ...among.params, n],
      },
      on: 'p.rowid = c.product_rowid',
      join: '',
      rank: { text: 'c.rank', params: [] },
    };
  },
};
