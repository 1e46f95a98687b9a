/** Admin numbers, computed in SQL in one statement each (no per-auction round trips). */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/index.js';

export interface AuctionReportRow {
  id: string; name: string; validUntil: number; settledAt: number | null;
  productCount: number; bidCount: number; revenue: number; pending: number;
}

export interface ProductReportRow {
  id: string; name: string; description: string; status: 'available' | 'sold'; auctionId: string | null;
  bidCount: number; highest: number;
}

export function auctionReport(db: Db, adminId: number): AuctionReportRow[] {
  return db.all<AuctionReportRow>(sql`
    select a.id, a.name, a.valid_until as validUntil, a.settled_at as settledAt,
      (select count(*) from products p where p.auction_id = a.id and p.deleted_at is null) as productCount,
      (select count(*) from bids b where b.auction_id = a.id and b.status <> 'failed') as bidCount,
      (select coalesce(sum(b.amount), 0) from bids b where b.auction_id = a.id and b.status = 'won') as revenue,
      (select coalesce(sum(b.amount), 0) from bids b where b.auction_id = a.id and b.status = 'success') as pending
    from auctions a
    where a.created_by = ${adminId} and a.deleted_at is null
    order by a.created_at desc, a.rowid desc`);
}

export function productReport(db: Db, adminId: number): ProductReportRow[] {
  return db.all<ProductReportRow>(sql`
    select p.id, p.name, p.description, p.status, p.auction_id as auctionId, p.bid_count as bidCount,
      coalesce((select b.amount from bids b where b.product_id = p.id and b.status in ('success', 'won')), 0) as highest
    from products p
    where p.created_by = ${adminId} and p.deleted_at is null
    order by p.created_at desc, p.rowid desc`);
}

export interface AdminStatsRow {
  totalAuctions: number; activeAuctions: number; totalProducts: number; unassignedProducts: number;
  totalBids: number; revenue: number; pending: number;
}

export function adminStats(db: Db, adminId: number, now: number): AdminStatsRow {
  return db.get<AdminStatsRow>(sql`
    select
      (select count(*) from auctions a where a.created_by = ${adminId} and a.deleted_at is null) as totalAuctions,
      (select count(*) from auctions a where a.created_by = ${adminId} and a.deleted_at is null and a.settled_at is null and a.valid_until > ${now}) as activeAuctions,
      (select count(*) from products p where p.created_by = ${adminId} and p.deleted_at is null) as totalProducts,
      (select count(*) from products p where p.created_by = ${adminId} and p.deleted_at is null and p.auction_id is null) as unassignedProducts,
      (select count(*) from bids b join auctions a on a.id = b.auction_id where a.created_by = ${adminId} and a.deleted_at is null and b.status <> 'failed') as totalBids,
      (select coalesce(sum(b.amount), 0) from bids b join auctions a on a.id = b.auction_id where a.created_by = ${adminId} and b.status = 'won') as revenue,
      (select coalesce(sum(b.amount), 0) from bids b join auctions a on a.id = b.auction_id where a.created_by = ${adminId} and b.status = 'success') as pending`);
}
