/** The admins' reports and dashboard figures: the types. */
import type { ProductStatus } from '../rows.js';

export interface AuctionReportRow {
  id: string; name: string; validUntil: number; settledAt: number | null;
  productCount: number; bidCount: number; revenue: number; pending: number;
}

export interface ProductReportRow {
  id: string; name: string; description: string; status: ProductStatus; auctionId: string | null;
  bidCount: number; highest: number;
}

export interface AdminStatsRow {
  totalAuctions: number; activeAuctions: number; totalProducts: number; unassignedProducts: number;
  totalBids: number; revenue: number; pending: number;
}
