/**
 * Lot search on PostgreSQL (docs/catalogue.md#search): `lot_search.document`, an English `tsvector`
 * (name weighted A, description B, auction name C) under a GIN index, one row per live product;
 * ts_rank ranks, so name matches come first. Every change it indexes also keeps the planner's
 * statistics of the tables a search reads fresh (docs/catalogue.md#what-a-search-costs).
 */
import type { SearchPort } from '../search/port.js';
import { marks } from '../sql.js';

const INSERT = `insert into lot_search (product_id, document)
  select p.id, setweight(to_tsvector('english', p.name), 'A') || setweight(to_tsvector('english', p.description), 'B')
    || setweight(to_tsvector('english', coalesce(a.name, '')), 'C')
  from products p left join auctions a on a.id = p.auction_id`;

/**
 * ANALYZE of each table a search reads whose statistics are older than the autovacuum daemon's rule
 * (more than 50 rows and a tenth of the table changed since its last ANALYZE), in one round trip.
 * Lots move into auctions by the hundred after an import analysed them in none: until the daemon's next
 * pass (or never, where it is off) the planner would believe no lot is in an auction, and pick plans
 * for the catalogue's filters that read every lot. The counts lag commits by a second or so (each
 * connection reports them at most once a second), so a command's own changes count for a later one.
 */
const FRESH_STATISTICS = `do $$
  declare t text;
  begin
    foreach t in array array['products', 'auctions', 'lot_search'] loop
      if exists (select 1 from pg_stat_user_tables s where s.relid = t::regclass and s.n_mod_since_analyze > 50 + s.n_live_tup / 10) then
        execute format('analyze %I', t);
      end if;
    end loop;
  end $$`;

/**
 * The text query of the next `?` (`to_tsquery` or `plainto_tsquery`), built once per statement: as a
 * subquery it is an InitPlan, where a bare call would be parsed again for every row a generic plan
 * (a prepared statement's, after five runs) reads.
 */
const TSQUERY = (fn: 'to_tsquery' | 'plainto_tsquery') => `(select ${fn}('english', ?))`;

/** ts_rank of a document against the query (the next `?`), higher is better, as an integer. */
const RANK = (document: string) => `cast(round(ts_rank(${document}, ${TSQUERY('plainto_tsquery')}) * 1000000) as bigint)`;

export const postgresSearch: SearchPort = {
  async refreshProducts(sql, ids) {
    if (ids.length === 0) return;
    await sql.run(`delete from lot_search where product_id in (${marks(ids.length)})`, ids);
    await sql.run(`${INSERT} where p.id in (${marks(ids.length)}) and p.deleted_at is null`, ids);
    // Products created, edited, moved between auctions or deleted (never a bid): keep the plans right.
    await sql.run(FRESH_STATISTICS);
  },
  async indexNewProducts(sql, ids) {
    if (ids.length === 0) return;
    await sql.run(`${INSERT} where p.id in (${marks(ids.length)})`, ids);
    // Imports too small for the import's own ANALYZE (unit-of-work.ts, afterBulkInsert) add up.
    await sql.run(FRESH_STATISTICS);
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
      where: { text: `ls.document @@ ${TSQUERY('plainto_tsquery')}`, params: [query] },
      rank: { text: RANK('ls.document'), params: [query] },
    };
  },
  ranked(words, n, among) {
    const query = words.join(' ');
    // Every word in the name (weight A): ranking every match reads each one's document (~400 ms for
    // 30,000), so the n ranked are the lots with every word in their name first, then other matches.
    const inName = words.map((w) => `${w}:A`).join(' & ');
    // Each match (read from the GIN index first, in its order) has its product looked up by key (the
    // LATERAL, OFFSET 0: per match, never turned around; in a subquery of its own, so that the join to
    // the auctions is not planned inside the lookup, where a small table is scanned for each match),
    // then its auction (by key, or from a hash of the auctions built once), and is kept when it meets
    // `among`: the n are chosen among the lots the search asks for (open ones, say), however many
    // others match, and the reading stops at n.
    const meets = (matches: string) => `(select p.product_id from (select m.product_id, p.auction_id, p.category_id, p.status, p.deleted_at
        from (${matches} offset 0) m cross join lateral (select * from products p where p.id = m.product_id offset 0) p offset 0) p
      join auctions a on a.id = p.auction_id where ${among.text} limit ?)`;
    return {
      // The other matches are read only when the name matches do not fill the n (the append stops at
      // the outer limit). Each lot's document is then read by its key, to rank it.
      from: {
        text: `(select product_id from (
            ${meets(`select product_id from lot_search where document @@ ${TSQUERY('to_tsquery')}`)}
            union all
            ${meets(`select product_id from lot_search where document @@ ${TSQUERY('plainto_tsquery')} and not document @@ ${TSQUERY('to_tsquery')}`)}
          ) candidates limit ?) c`,
        params: [inName, ...among.params, n, query, inName, ...among.params, n, n],
      },
      on: 'p.id = c.product_id',
      join: 'join lot_search d on d.product_id = p.id',
      rank: { text: RANK('d.document'), params: [query] },
    };
  },
};
