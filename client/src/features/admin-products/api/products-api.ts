/** Manage Products calls (spec §7, DESIGN §3), always with the admin token. */
import type { AdminAuction, Product } from '@auction/shared';
import { api } from '../../../lib/api-client';

const as = { as: 'admin' } as const;

export interface ProductInput {
  name: string;
  description: string;
}

export const fetchUnassigned = () => api.get<Product[]>('/admin/products/unassigned', as);
export const fetchMyAuctions = () => api.get<AdminAuction[]>('/admin/auctions/my', as);
export const fetchAuctionProducts = (auctionId: string) =>
  api.get<Product[]>(`/admin/auction/${encodeURIComponent(auctionId)}/products`, as);

export const createProduct = (body: ProductInput & { id: string }) =>
  api.post<{ message: string; product: Product }>('/admin/product', body, as);
export const updateProduct = (id: string, body: ProductInput) =>
  api.put<{ message: string; product: Product }>(`/admin/product/${encodeURIComponent(id)}`, body, as);
export const deleteProduct = (id: string) => api.delete<{ message: string }>(`/admin/product/${encodeURIComponent(id)}`, as);
