import { toRupees } from '@auction/shared';
import type { AdminStatsRow, AuctionReportRow, ProductReportRow } from '../db/index.js';
import { auctionStatus, iso } from './format.js';

export function presentAdminStats(s: AdminStatsRow) {
  return {
    total_auctions: s.totalAuctions, active_auctions: s.activeAuctions, total_products: s.totalProducts,
    unassigned_products: s.unassignedProducts, total_bids: s.totalBids, revenue: toRupees(s.revenue), pending: toRupees(s.pending),
  };
}

export function presentAuctionReport(a: AuctionReportRow, now: number) {
  return {
    id: a.id, name: a.name, valid_until: iso(a.validUntil), status: auctionStatus(a, now), product_count: a.productCount,
    bid_count: a.bidCount, revenue: toRupees(a.revenue), pending: toRupees(a.pending),
  };
}

export function presentProductReport(p: ProductReportRow) {
  return {
    id: p.id, name: p.name, description: p.description, status: p.auctionId === null && p.status !== 'sold' ? 'unassigned' as const : p.status,
    auction_id: p.auctionId, bid_count: p.bidCount, highest_bid: toRupees(p.highest),
  };
}
