/**
 * The admins' reports and dashboard figures.
 * Its reads, one slice of Reads (reads.ts).
 */
import { SqlSlice } from '../slice.js';
import type { AdminStatsRow, AuctionReportRow, ProductReportRow } from './types.js';

export class ReportsReads extends SqlSlice {
  async auctionReport(adminId: number): Promise<AuctionReportRow[]> {
    return this.sql.all<AuctionReportRow>(
      `select a.id, a.name, a.valid_until as "validUntil", a.settled_at as "settledAt",
        (select count(*) from products p where p.auction_id = a.id and p.deleted_at is null) as "productCount",
        -- The lots' bid counts (docs/bidding.md#the-bid-count), from the rows: kept for lots that left the auction unsold.
        ((select count(*) from bids b where b.auction_id = a.id and b.status not in ('failed', 'rolledback'))
          + (select count(*) from auto_bids x join bids b on b.id = x.bid_id where b.auction_id = a.id and x.status = 'accepted')) as "bidCount",
        (select coalesce(sum(b.amount), 0) from bids b where b.auction_id = a.id and b.status = 'won') as revenue,
        (select coalesce(sum(b.amount), 0) from bids b where b.auction_id = a.id and b.status = 'success') as pending
      from auctions a
      where a.created_by = ? and a.deleted_at is null
      order by a.created_at desc, ${this.dialect.insertionOrder('a')} desc`,
      [adminId],
    );
  }

  async productReport(adminId: number): Promise<ProductReportRow[]> {
    return this.sql.all<ProductReportRow>(
      `select p.id, p.name, p.description, p.status, p.auction_id as "auctionId", p.bid_count as "bidCount",
        coalesce((select b.amount from bids b where b.product_id = p.id and b.status in ('success', 'won')), 0) as highest
      from products p
      where p.created_by = ? and p.deleted_at is null
      order by p.created_at desc, ${this.dialect.insertionOrder('p')} desc`,
      [adminId],
    );
  }

  async adminStats(adminId: number, now: number): Promise<AdminStatsRow> {
    const row = await this.sql.get<AdminStatsRow>(
      `select
        (select count(*) from auctions a where a.created_by = ? and a.deleted_at is null) as "totalAuctions",
        (select count(*) from auctions a where a.created_by = ? and a.deleted_at is null and a.settled_at is null and a.valid_until > ?) as "activeAuctions",
        (select count(*) from products p where p.created_by = ? and p.deleted_at is null) as "totalProducts",
        (select count(*) from products p where p.created_by = ? and p.deleted_at is null and p.auction_id is null) as "unassignedProducts",
        ((select count(*) from bids b join auctions a on a.id = b.auction_id where a.created_by = ? and a.deleted_at is null and b.status not in ('failed', 'rolledback'))
          + (select count(*) from auto_bids x join bids b on b.id = x.bid_id join auctions a on a.id = b.auction_id
             where a.created_by = ? and a.deleted_at is null and x.status = 'accepted')) as "totalBids",
        (select coalesce(sum(b.amount), 0) from bids b join auctions a on a.id = b.auction_id where a.created_by = ? and b.status = 'won') as revenue,
        (select coalesce(sum(b.amount), 0) from bids b join auctions a on a.id = b.auction_id where a.created_by = ? and b.status = 'success') as pending`,
      [adminId, adminId, now, adminId, adminId, adminId, adminId, adminId, adminId],
    );
    if (!row) throw new Error('store: admin stats returned no row');
    return row;
  }
}
