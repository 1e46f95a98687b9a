/** Reports numbers and the two CSV exports (auctions-report.csv, products-report.csv). */
import { sumRupees, type AuctionReport, type ProductReport, type Reports } from '@auction/shared';
import { csvAmount, csvDocument } from '../../lib/csv';

export type ReportTab = 'auctions' | 'products';

export interface ReportStats {
  totalAuctions: number;
  activeAuctions: number;
  totalProducts: number;
  revenue: number;
  pending: number;
}

export function reportStats(r: Reports): ReportStats {
  return {
    totalAuctions: r.auctions.length,
    activeAuctions: r.auctions.filter((a) => a.status === 'active').length,
    totalProducts: r.products.length,
    revenue: sumRupees(r.auctions.map((a) => a.revenue)),
    pending: sumRupees(r.auctions.map((a) => a.pending)),
  };
}

export const reportFilename = (tab: ReportTab) => `${tab}-report.csv`;

export const AUCTION_COLUMNS = ['id', 'name', 'valid_until', 'status', 'product_count', 'bid_count', 'revenue', 'pending'] as const;
export const PRODUCT_COLUMNS = ['id', 'name', 'description', 'status', 'auction_id', 'bid_count', 'highest_bid'] as const;

export function auctionsCsv(rows: readonly AuctionReport[]): string {
  return csvDocument(AUCTION_COLUMNS, rows.map((a) => [a.id, a.name, a.valid_until, a.status, a.product_count, a.bid_count, csvAmount(a.revenue), csvAmount(a.pending)]));
}

export function productsCsv(rows: readonly ProductReport[]): string {
  return csvDocument(PRODUCT_COLUMNS, rows.map((p) => [p.id, p.name, p.description, p.status, p.auction_id, p.bid_count, csvAmount(p.highest_bid)]));
}

export function reportCsv(tab: ReportTab, r: Reports): string {
  return tab === 'auctions' ? auctionsCsv(r.auctions) : productsCsv(r.products);
}

/** Auctions with money to show, largest first (revenue, then pending), at most `limit`. */
export function chartRows(rows: readonly AuctionReport[], limit = 8): AuctionReport[] {
  return rows
    .filter((a) => a.revenue > 0 || a.pending > 0)
    .sort((x, y) => y.revenue + y.pending - (x.revenue + x.pending))
    .slice(0, limit);
}
