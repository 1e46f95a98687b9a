/**
 * Lot search on PostgreSQL (docs/catalogue.md#search): `lot_search.document`, an English `tsvector`
 * (name weighted A, description B, auction name C) under a GIN index, one row per live product;
 * ts_rank ranks, so name matches come first.
 */
import { marks, type SearchPort } from '../search.js';

const INSERT = `insert into lot_search (product_id, document)
  select p.id, setweight(to_tsvector('english', p.name), 'A') || setweight(to_tsvector('english', p.description), 'B')
    || setweight(to_tsvector('english', coalesce(a.name, '')), 'C')
  from products p left join auctions a on a.id = p.auction_id`;

/** ts_rank of a document against the query (the next `?`), higher is better, as an integer. */
const RANK = (document: string) => `cast(round(ts_rank(${document}, plainto_tsquery('english', ?)) * 1000000) as bigint)`;

export const postgresSearch: SearchPort = {
  async refreshProducts(sql, ids) {
    if (ids.length === 0) return;
    await sql.run(`delete from lot_search where product_id in (${marks(ids.length)})`, ids);
    await sql.run(`${INSERT} where p.id in (${marks(ids.length)}) and p.deleted_at is null`, ids);
  },
  async indexNewProducts(sql, ids) {
    if (ids.length === 0) return;
    await sql.run(`${INSERT} where p.id in (${marks(ids.length)})`, ids);
  },
  async refreshAuctions(sql, auctionIds) {
    if (auctionIds.length === 0) return;
    const where = `p.auction_id in (${marks(auctionIds.length)}) and p.deleted_at is null`;
    await sql.run(`delete from lot_search where product_id in (select p.id from products p where ${where})`, auctionIds);
    await sql.run(`${INSERT} where ${where}`, auctionIds);
  },
  match(words) {
    const query = words.join(' ');
    return {
      join: 'join lot_search ls on ls.product_id = p.id',
      probeJoin: 'join lot_search ls on ls.product_id = p.id',
      where: { text: "ls.document @@ plainto_tsquery('english', ?)", params: [query] },
      rank: { text: RANK('ls.document'), params: [query] },
    };
  },
  ranked(words, n) {
    const query = words.join(' ');
    // Every word in the name (weight A): ranking every match reads each one's document (~400 ms for
    // 30,000), so the n ranked are the lots with every word in their name first, then other matches.
    const inName = words.map((w) => `${w}:A`).join(' & ');
    return {
      join: {
        // The other matches are read only when the name matches do not fill the n (the append stops
        // at the outer limit).
        text: `join (select c.product_id, ${RANK('d.document')} as rank from (
            select product_id from (
              (select product_id from lot_search where document @@ to_tsquery('english', ?) limit ?)
              union all
              (select product_id from lot_search
                where document @@ plainto_tsquery('english', ?) and not document @@ to_tsquery('english', ?) limit ?)
            ) candidates limit ?) c join lot_search d on d.product_id = c.product_id) ranked
          on ranked.product_id = p.id`,
        params: [query, inName, n, query, inName, n, n],
      },
      rank: 'ranked.rank',
    };
  },
};
