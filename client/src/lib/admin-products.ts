/**
 * The admin's product lists, which Manage Products shows and the auction form chooses from: the
 * products in no auction, an auction's products, and the admin's auctions for the By Auction picker.
 * Every write that moves a product (a product saved or deleted, its photos changed, an auction
 * created, edited, deleted or settled) calls `productsChanged()`.
 */
import { queryOptions } from '@tanstack/react-query';
import type { AdminAuction, Product } from '@auction/shared';
import { api } from './api-client';
import { invalidateSoon } from './live-query';

const as = { as: 'admin' } as const;

export const fetchUnassigned = () => api.get<Product[]>('/admin/products/unassigned', as);
export const fetchMyAuctions = () => api.get<AdminAuction[]>('/admin/auctions/my', as);
export const fetchAuctionProducts = (auctionId: string) =>
  api.get<Product[]>(`/admin/auction/${encodeURIComponent(auctionId)}/products`, as);

/** Every product list below starts with this key. */
export const adminProductsKey = ['admin', 'products'] as const;

/** GET /admin/products/unassigned, the admin's products in no auction. */
export const unassignedProductsQuery = () => queryOptions({
  queryKey: [...adminProductsKey, 'unassigned'] as const,
  queryFn: () => fetchUnassigned(),
});

/** GET /admin/auctions/my, for the By Auction picker and its counts. */
export const productAuctionsQuery = () => queryOptions({
  queryKey: [...adminProductsKey, 'auctions'] as const,
  queryFn: () => fetchMyAuctions(),
});

/** GET /admin/auction/:id/products, by auction id ('' while there is none: no products, no request). */
export const auctionProductsQuery = (auctionId: string) => queryOptions({
  queryKey: [...adminProductsKey, 'by-auction', auctionId] as const,
  queryFn: () => (auctionId ? fetchAuctionProducts(auctionId) : Promise.resolve<Product[]>([])),
});

/** After a product was created, edited or deleted, its photos changed, or an auction took or gave back products: the lists on screen are read again, the others when next shown. */
export function productsChanged(): void {
  invalidateSoon(adminProductsKey);
}
