/** GET /admin/reports (DESIGN §3): every number of the Reports page in one call. */
import type { AuctionStatus } from '@auction/shared';
import { api } from '../../../lib/api-client';

export interface AuctionReport {
  id: string;
  name: string;
  valid_until: string;
  status: AuctionStatus;
  product_count: number;
  bid_count: number;
  revenue: number;
  pending: number;
}

export interface ProductReport {
  id: string;
  name: string;
  description: string;
  status: 'available' | 'sold' | 'unassigned';
  auction_id: string | null;
  bid_count: number;
  highest_bid: number;
}

export interface Reports {
  auctions: AuctionReport[];
  products: ProductReport[];
}

export const fetchReports = () => api.get<Reports>('/admin/reports', { as: 'admin' });
