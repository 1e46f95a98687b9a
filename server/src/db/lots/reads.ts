/**
 * Lots and their bids: locking a lot, its leader and runners-up, a bidder's bids and cancels, who follows it.
 * Its reads, one slice of Reads (reads.ts).
 */
import { WHOLE_LIST_MAX } from '@auction/shared';
import { isStorableId } from '../rows.js';
import { SqlSlice } from '../slice.js';
import type { LotHistoryKey, LotHistoryView, MyStanding, OpenAuction, ProductBidView, UserBidView } from './types.js';

export class LotsReads extends SqlSlice {
  /** Every bidder who bid in an auction (refused attempts aside) and how many of their bids there they cancelled, most first. */
  async bidderCancels(auctionId: string): Promise<{ userId: number; username: string; cancels: number }[]> {
    const rows = await this.sql.all<{ userId: number; username: string; cancels: number }>(
      `select u.id as "userId", u.username, sum(case when b.status = 'rolledback' and b.reason = 'CANCELLED' then 1 else 0 end) as cancels
       from bids b join users u on u.id = b.user_id where b.auction_id = ? and b.status <> 'failed'
       group by u.id, u.username order by cancels desc, u.username`,
      [auctionId],
    );
    return rows.map((r) => ({ ...r, cancels: Number(r.cancels) }));
  }

  /**
   * Open auctions ending by `until`, soonest first (then by id), after `after` in that order if given:
   * a cursor, so that any number of auctions ending at the same moment are read page by page.
   */
  async auctionsEndingBy(until: number, after: { validUntil: number; id: string } | null, limit: number): Promise<OpenAuction[]> {
    return this.sql.all<OpenAuction>(
      `select id, valid_until as "validUntil", created_by as "ownerId" from auctions
       where settled_at is null and deleted_at is null and valid_until <= ?${after === null ? '' : ' and (valid_until > ? or (valid_until = ? and id > ?))'}
       order by valid_until asc, id asc limit ?`,
      after === null ? [until, limit] : [until, after.validUntil, after.validUntil, after.id, limit],
    );
  }

  /**
   * The caller's standing on each lot of an auction where they bid (lots they never bid on are left
   * out): leading, won, else outbid (or unsold). Cancelled and refused bids do not count.
   */
  async myStandings(userId: number, auctionId: string): Promise<MyStanding[]> {
    if (!isStorableId(userId)) return [];
    return this.sql.all<MyStanding>(
      `select b.product_id as "productId",
        case max(case b.status when 'won' then 3 when 'success' then 2 else 1 end) when 3 then 'won' when 2 then 'success' else 'outbid' end as status,
        max(case when b.status = 'success' then b.max_amount end) as "maxAmount"
      from bids b where b.user_id = ? and b.auction_id = ? and b.status in ('success', 'won', 'outbid', 'unsold')
      group by b.product_id`,
      [userId, auctionId],
    );
  }

  /** A product with its auction's end, for `GET /time-left`. */
  async productTiming(productId: string) {
    return (await this.sql.get<{ productId: string; auctionId: string | null; validUntil: number | null; settledAt: number | null; createdBy: number }>(
      `select p.id as "productId", a.id as "auctionId", a.valid_until as "validUntil", a.settled_at as "settledAt", p.created_by as "createdBy"
       from products p left join auctions a on a.id = p.auction_id where p.id = ? and p.deleted_at is null`,
      [productId],
    )) ?? null;
  }

  /** Ids of the (not deleted) auctions a bidder registered for, newest first. */
  async registeredAuctionIds(userId: number): Promise<string[]> {
    const rows = await this.sql.all<{ id: string }>(
      `select a.id from registrations r join auctions a on a.id = r.auction_id
       where r.user_id = ? and a.deleted_at is null order by a.created_at desc, ${this.dialect.insertionOrder('a')} desc`,
      [userId],
    );
    return rows.map((r) => r.id);
  }

  /** A bidder's own bids, newest first, the newest WHOLE_LIST_MAX at most (names kept even when the product or auction was deleted). */
  async userBids(userId: number, auctionId?: string): Promise<UserBidView[]> {
    return this.sql.all<UserBidView>(
      `select b.id, b.product_id as "productId", p.name as "productName", b.auction_id as "auctionId", a.name as "auctionName",
        b.amount, b.max_amount as "maxAmount", b.buy_now as "buyNow", b.created_at as "createdAt", b.status, b.reason,
        a.valid_until as "auctionValidUntil", a.settled_at as "auctionSettledAt", a.cancel_policy as "auctionCancelPolicy"
      from bids b join products p on p.id = b.product_id join auctions a on a.id = b.auction_id
      where b.user_id = ?${auctionId === undefined ? '' : ' and b.auction_id = ?'} order by b.id desc limit ${WHOLE_LIST_MAX}`,
      auctionId === undefined ? [userId] : [userId, auctionId],
    );
  }

  /**
   * A page of a product's bids, newest first (by id: bids on a product are written under its lock, so
   * ids follow commit order), older than `before` when given, with the bidder's username and the
   * auction's owner.
   */
  async productBids(productId: string, page: { before: number | null; limit: number }): Promise<ProductBidView[]> {
    const older = page.before !== null && page.before <= 2_147_483_647;
    return this.sql.all<ProductBidView>(
      `select b.id, b.auction_id as "auctionId", b.amount, b.status, b.created_at as "createdAt", u.username, a.created_by as "auctionOwner", b.buy_now as "buyNow"
      from bids b join users u on u.id = b.user_id join auctions a on a.id = b.auction_id
      where b.product_id = ?${older ? ' and b.id < ?' : ''} order by b.id desc limit ?`,
      older ? [productId, page.before, page.limit] : [productId, page.limit],
    );
  }

  /**
   * A page of a lot's history in one auction, highest first (then newest; a bid before its own
   * automatic raises at the same moment): its bids that were not refused (cancelled ones included,
   * status `rolledback`), and the automatic raises of maximum bids (auto_bids; `rolledback` when
   * cancelled with the bid they answered), each with the bidder and their number on the lot (1, 2, 3… in the order
   * of their first bid there). At most `limit` entries after `after` in that order, a keyset: an entry
   * keeps its place however many are written meanwhile (its amount and time never change).
   */
  async lotHistory(productId: string, auctionId: string, page: { after: LotHistoryKey | null; limit: number }): Promise<LotHistoryView[]> {
    const a = page.after;
    const keyset = a === null ? '' : `where h.amount < ? or (h.amount = ? and (h.created_at < ? or (h.created_at = ? and (h.auto < ? or (h.auto = ? and h.bid_id < ?)))))`;
    const rows = await this.sql.all<Omit<LotHistoryView, 'auto' | 'buyNow'> & { auto: number; buyNow: number }>(
      `with h as (
         select b.id as bid_id, coalesce(b.placed_amount, b.amount) as amount, b.status, b.created_at, b.user_id, 0 as auto, case when b.buy_now then 1 else 0 end as buy_now
         from bids b where b.product_id = ? and b.auction_id = ? and b.status <> 'failed'
         union all
         select x.bid_id, x.amount, case when x.status = 'rolledback' then 'rolledback' else b.status end, x.created_at, b.user_id, 1, 0
         from auto_bids x join bids b on b.id = x.bid_id
         where x.product_id = ? and b.auction_id = ?
       ), f as (
         select b.user_id, row_number() over (order by min(b.id)) as n
         from bids b where b.product_id = ? and b.auction_id = ? and b.status <> 'failed' group by b.user_id
       )
       select h.bid_id as "bidId", h.amount, h.status, h.created_at as "createdAt", h.user_id as "userId", u.username, h.auto, h.buy_now as "buyNow", f.n as alias
       from h join users u on u.id = h.user_id left join f on f.user_id = h.user_id
       ${keyset}
       order by h.amount desc, h.created_at desc, h.auto desc, h.bid_id desc limit ?`,
      [productId, auctionId, productId, auctionId, productId, auctionId,
        ...(a === null ? [] : [a.amount, a.amount, a.createdAt, a.createdAt, a.auto ? 1 : 0, a.auto ? 1 : 0, a.bidId]), page.limit],
    );
    return rows.map((r) => ({ ...r, auto: Boolean(Number(r.auto)), buyNow: Boolean(Number(r.buyNow)), alias: r.alias === null ? null : Number(r.alias) }));
  }
}
