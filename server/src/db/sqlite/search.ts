/**
 * Lot search on SQLite (docs/catalogue.md#search): the FTS5 table `lot_search` (columns name,
 * description, auction_name; the porter stemmer over unicode61 words), one row per live product under
 * the product's rowid. bm25 ranks, name first (weights 10, 2, 1).
 */
import { marks, type SearchPort } from '../search.js';

const INSERT = `insert into lot_search (rowid, name, description, auction_name)
  select p.rowid, p.name, p.description, coalesce(a.name, '') from products p left join auctions a on a.id = p.auction_id`;

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
    // Each word a quoted string (letters and digits only, so nothing to escape): all of them required.
    const query = words.map((w) => `"${w}"`).join(' ');
    return {
      join: 'join lot_search on lot_search.rowid = p.rowid',
      where: { text: 'lot_search match ?', params: [query] },
      rank: { text: 'cast(round(-bm25(lot_search, 10.0, 2.0, 1.0) * 1000000) as integer)', params: [] },
    };
  },
};
