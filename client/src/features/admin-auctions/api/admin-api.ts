import type {
  AdminAuction, AuctionSaved, CreateAuctionBody, LotHistoryPage, MessageBody, Product,
  Settled, UpdateAuctionBody,
} from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The admin calls of the dashboard, Manage Auctions and Auction Detail, with the admin token. */
const asAdmin = { as: 'admin' } as const;
const enc = encodeURIComponent;

export const adminApi = {
  myAuctions: (signal?: AbortSignal) => api.get<AdminAuction[]>('/admin/auctions/my', { ...asAdmin, signal }),
  auction: (id: string, signal?: AbortSignal) => api.get<AdminAuction>(`/admin/auction/${enc(id)}`, { ...asAdmin, signal }),
  products: (id: string, signal?: AbortSignal) => api.get<Product[]>(`/admin/auction/${enc(id)}/products`, { ...asAdmin, signal }),
  /** A lot's history in its current auction, bids and automatic raises (`auto`), highest first: its first page. */
  lotHistory: (productId: string, signal?: AbortSignal) => api.get<LotHistoryPage>(`/products/${enc(productId)}/bids`, { ...asAdmin, signal }),
  createAuction: (body: CreateAuctionBody) => api.post<AuctionSaved>('/admin/auction', body, asAdmin),
  updateAuction: (id: string, body: UpdateAuctionBody) => api.put<AuctionSaved>(`/admin/auction/${enc(id)}`, body, asAdmin),
  deleteAuction: (id: string) => api.delete<MessageBody>(`/admin/auction/${enc(id)}`, asAdmin),
  settleAuction: (id: string) => api.post<Settled>(`/admin/auction/${enc(id)}/settle`, undefined, asAdmin),
};
