/** Manage Products calls, always with the admin token. */
import type { AdminAuction, CreateProductBody, MessageBody, Product, ProductSaved, UpdateProductBody } from '@auction/shared';
import { api } from '../../../lib/api-client';

const as = { as: 'admin' } as const;

export const fetchUnassigned = () => api.get<Product[]>('/admin/products/unassigned', as);
export const fetchMyAuctions = () => api.get<AdminAuction[]>('/admin/auctions/my', as);
export const fetchAuctionProducts = (auctionId: string) =>
  api.get<Product[]>(`/admin/auction/${encodeURIComponent(auctionId)}/products`, as);

export const createProduct = (body: CreateProductBody) => api.post<ProductSaved>('/admin/product', body, as);
export const updateProduct = (id: string, body: UpdateProductBody) =>
  api.put<ProductSaved>(`/admin/product/${encodeURIComponent(id)}`, body, as);
export const deleteProduct = (id: string) => api.delete<MessageBody>(`/admin/product/${encodeURIComponent(id)}`, as);
