import type { AdminAuction, Product } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The admin calls of the dashboard, Manage Auctions and Auction Detail (DESIGN §3), with the admin token. */
const asAdmin = { as: 'admin' } as const;
const enc = encodeURIComponent;

export interface AdminStats {
  total_auctions: number;
  active_auctions: number;
  total_products: number;
  unassigned_products: number;
  total_bids: number;
  revenue: number;
  pending: number;
}

/** One bid of a product as `GET /bids?product_key=` lists it (bidder masked unless the caller owns the auction). */
export interface ProductBid {
  bid_id: number;
  auction_id: string;
  amount: number;
  status: string;
  timestamp: string;
  bidder: string;
}

export interface AuctionInput {
  name: string;
  valid_until: string;
  product_ids?: string[];
}

export const adminApi = {
  stats: (signal?: AbortSignal) => api.get<AdminStats>('/admin/stats', { ...asAdmin, signal }),
  myAuctions: (signal?: AbortSignal) => api.get<AdminAuction[]>('/admin/auctions/my', { ...asAdmin, signal }),
  auction: (id: string, signal?: AbortSignal) => api.get<AdminAuction>(`/admin/auction/${enc(id)}`, { ...asAdmin, signal }),
  products: (id: string, signal?: AbortSignal) => api.get<Product[]>(`/admin/auction/${enc(id)}/products`, { ...asAdmin, signal }),
  unassigned: (signal?: AbortSignal) => api.get<Product[]>('/admin/products/unassigned', { ...asAdmin, signal }),
  bids: (productKey: string, signal?: AbortSignal) => api.get<ProductBid[]>('/bids', { ...asAdmin, query: { product_key: productKey }, signal }),
  createAuction: (body: AuctionInput & { id: string; product_ids: string[] }) =>
    api.post<{ message: string; auction: AdminAuction }>('/admin/auction', body, asAdmin),
  updateAuction: (id: string, body: AuctionInput) => api.put<{ message: string; auction: AdminAuction }>(`/admin/auction/${enc(id)}`, body, asAdmin),
  deleteAuction: (id: string) => api.delete<{ message: string }>(`/admin/auction/${enc(id)}`, asAdmin),
  settleAuction: (id: string) => api.post<{ message: string }>(`/admin/auction/${enc(id)}/settle`, undefined, asAdmin),
  createProduct: (body: { id: string; name: string; description: string }) =>
    api.post<{ message: string; product: Product }>('/admin/product', body, asAdmin),
};
