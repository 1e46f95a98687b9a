/**
 * Lots and their bids: locking a lot, its leader and runners-up, a bidder's bids and cancels, who follows it.
 * Its statements in a unit of work, one slice of SqlUnitOfWork (unit-of-work.ts).
 */
import { asBid, type AuctionRow, type BidRow, columns, isStorableId, type ProductRow } from '../rows.js';
import { SqlSlice } from '../slice.js';
import { marks, type Param } from '../sql.js';
import type { AutoRaise, Follower, Hold, LotsWork } from './types.js';

/** A hold's columns from `bids b`. */
const HOLD = 'b.id as "bidId", b.user_id as "userId", b.amount, b.max_amount as "maxAmount", b.held';

/**
 * From `bids b`: the outbid bids on a product (?) in an auction (?) of bidders other than one (?) who
 * may still lead there: active, registered, and never cancelled a bid on it in that auction.
 */
const MAY_LEAD = `join users u on u.id = b.user_id
  join registrations r on r.auction_id = b.auction_id and r.user_id = b.user_id
  where b.product_id = ? and b.auction_id = ? and b.status = 'outbid' and b.user_id <> ? and u.status = 'active'
    and not exists (select 1 from bids c where c.product_id = b.product_id and c.auction_id = b.auction_id and c.user_id = b.user_id and c.status = 'rolledback')`;

export class LotsSql extends SqlSlice implements LotsWork {
  async openProductsByName(name: string, now: number, userId: number) {
    const rows = await this.sql.all<{ id: string; registered: number | boolean }>(
      `select p.id, case when exists (select 1 from registrations r where r.auction_id = a.id and r.user_id = ?) then 1 else 0 end as registered
       from products p join auctions a on a.id = p.auction_id
       where p.name = ? and p.deleted_at is null and a.settled_at is null and a.valid_until > ? order by registered desc, p.id limit 2`,
      [userId, name, now],
    );
    return rows.map((r) => ({ id: r.id, registered: Number(r.registered) === 1 }));
  }

  async lockProduct(id: string) {
    const product = await this.sql.get<ProductRow>(`select ${columns.product('p')} from products p where p.id = ? and p.deleted_at is null${this.dialect.forUpdate}`, [id]);
    if (!product) return null;
    // Read after the lock: on PostgreSQL this statement sees whatever committed while we waited.
    const auction = product.auctionId === null ? null
      : (await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ?`, [product.auctionId])) ?? null;
    return { product, auction };
  }

  async lockProducts(ids: readonly string[]): Promise<ProductRow[]> {
    if (ids.length === 0) return [];
    return this.sql.all<ProductRow>(
      `select ${columns.product('p')} from products p where p.id in (${marks(ids.length)}) and p.deleted_at is null order by p.id${this.dialect.forUpdate}`,
      ids,
    );
  }

  async lockProductsOf(auctionId: string): Promise<ProductRow[]> {
    return this.sql.all<ProductRow>(
      `select ${columns.product('p')} from products p where p.auction_id = ? and p.deleted_at is null order by p.id${this.dialect.forUpdate}`,
      [auctionId],
    );
  }

  async lockProductsFor(auctionId: string, ids: readonly string[]): Promise<ProductRow[]> {
    const others = ids.length === 0 ? '' : ` or p.id in (${marks(ids.length)})`;
    return this.sql.all<ProductRow>(
      `select ${columns.product('p')} from products p where (p.auction_id = ?${others}) and p.deleted_at is null order by p.id${this.dialect.forUpdate}`,
      [auctionId, ...ids],
    );
  }

  async auction(id: string): Promise<AuctionRow | null> {
    return (await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ? and a.deleted_at is null`, [id])) ?? null;
  }

  async lockAuction(id: string): Promise<AuctionRow | null> {
    return (await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ? and a.deleted_at is null${this.dialect.forUpdate}`, [id])) ?? null;
  }

  async leader(productId: string): Promise<Hold | null> {
    return (await this.sql.get<Hold>(`select ${HOLD} from bids b where b.product_id = ? and b.status = 'success'`, [productId])) ?? null;
  }

  async leaders(productIds: readonly string[]) {
    if (productIds.length === 0) return [];
    return this.sql.all<Hold & { productId: string }>(
      `select ${HOLD}, b.product_id as "productId" from bids b
       where b.product_id in (${marks(productIds.length)}) and b.status = 'success' order by b.product_id`,
      productIds,
    );
  }

  async isRegistered(auctionId: string, userId: number): Promise<boolean> {
    return (await this.sql.get('select 1 as one from registrations where auction_id = ? and user_id = ?', [auctionId, userId])) !== undefined;
  }

  async bidWithContext(bidId: number) {
    if (!isStorableId(bidId)) return null;
    const row = await this.sql.get<BidRow & { productName: string }>(
      `select ${columns.bid('b')}, p.name as "productName" from bids b join products p on p.id = b.product_id where b.id = ?`,
      [bidId],
    );
    if (!row) return null;
    const auction = await this.sql.get<AuctionRow>(`select ${columns.auction('a')} from auctions a where a.id = ?`, [row.auctionId]);
    if (!auction) return null;
    const { productName, ...bid } = row;
    return { bid: asBid(bid), productName, auction };
  }

  async reinstatementCandidates(cancelled: BidRow): Promise<Hold[]> {
    return this.sql.all<Hold>(
      `select ${HOLD} from bids b ${MAY_LEAD} order by b.amount desc, b.id asc`,
      [cancelled.productId, cancelled.auctionId, cancelled.userId],
    );
  }

  async runnerUpTop(productId: string, auctionId: string, userId: number): Promise<number | null> {
    const row = await this.sql.get<{ top: number | null }>(`select max(coalesce(b.max_amount, b.amount)) as top from bids b ${MAY_LEAD}`, [productId, auctionId, userId]);
    return row?.top === null || row?.top === undefined ? null : Number(row.top);
  }

  async autoRaisesOf(bidIds: readonly number[]): Promise<AutoRaise[]> {
    if (bidIds.length === 0) return [];
    return this.sql.all<AutoRaise>(
      `select x.id, x.bid_id as "bidId", x.amount from auto_bids x where x.bid_id in (${marks(bidIds.length)}) and x.status = 'accepted' order by x.id`,
      bidIds,
    );
  }

  async lotBidCount(productId: string, auctionId: string): Promise<number> {
    const row = await this.sql.get<{ n: number }>(
      `select (select count(*) from bids b where b.product_id = ? and b.auction_id = ? and b.status not in ('failed', 'rolledback'))
        + (select count(*) from auto_bids x join bids b on b.id = x.bid_id where x.product_id = ? and b.auction_id = ? and x.status = 'accepted') as n`,
      [productId, auctionId, productId, auctionId],
    );
    return Number(row?.n ?? 0);
  }

  async cancelsBy(userId: number, auctionId: string, productId: string): Promise<{ auction: number; lot: number }> {
    // bids_auction_idx (auction_id, status): an auction's cancelled bids, few by the rule they count for.
    const row = await this.sql.get<{ auction: number; lot: number }>(
      `select count(*) as auction, coalesce(sum(case when b.product_id = ? then 1 else 0 end), 0) as lot
       from bids b where b.auction_id = ? and b.status = 'rolledback' and b.user_id = ? and b.reason = 'CANCELLED'`,
      [productId, auctionId, userId],
    );
    return { auction: Number(row?.auction ?? 0), lot: Number(row?.lot ?? 0) };
  }

  async leadingBidsOf(userId: number): Promise<BidRow[]> {
    if (!isStorableId(userId)) return [];
    return (await this.sql.all<BidRow>(`select ${columns.bid('b')} from bids b where b.user_id = ? and b.status = 'success' order by b.product_id`, [userId])).map(asBid);
  }

  async register(auctionId: string, userId: number, now: number): Promise<boolean> {
    return (await this.sql.run('insert into registrations (auction_id, user_id, created_at) values (?, ?, ?) on conflict do nothing', [auctionId, userId, now])) > 0;
  }

  async followersOf(auctionId: string, opts: { productIds?: readonly string[]; savers?: boolean } = {}): Promise<Follower[]> {
    const ids = opts.productIds;
    if (ids !== undefined && ids.length === 0) return [];
    const only = (column: string) => (ids === undefined ? '' : ` and ${column} in (${marks(ids.length)})`);
    const idParams = ids ?? [];
    const parts = [`select b.user_id, b.product_id, 1 as bid from bids b where b.auction_id = ? and b.status <> 'failed'${only('b.product_id')}`];
    const params: Param[] = [auctionId, ...idParams];
    if (opts.savers) {
      parts.push(`select s.user_id, s.product_id, 0 as bid from saved_lots s join products sp on sp.id = s.product_id where sp.auction_id = ?${only('s.product_id')}`);
      params.push(auctionId, ...idParams);
    }
    const rows = await this.sql.all<Follower & { bid: number | boolean }>(
      `select f.user_id as "userId", f.product_id as "productId", p.name as "productName", max(f.bid) as bid
       from (${parts.join(' union all ')}) f join products p on p.id = f.product_id
       where p.auction_id = ? and p.deleted_at is null
       group by f.user_id, f.product_id, p.name order by f.user_id, f.product_id`,
      [...params, auctionId],
    );
    return rows.map((r) => ({ ...r, bid: Boolean(Number(r.bid)) }));
  }
}
