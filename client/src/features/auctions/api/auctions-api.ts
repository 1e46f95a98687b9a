import type { Auction, Product } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The bidder-side auction calls (DESIGN §3), always with the user token. */
const asUser = { as: 'user' } as const;

export interface BidPlacedReply {
  message: string;
  highest_bid: number;
  wallet_balance: number;
}

export const auctionsApi = {
  list: () => api.get<Auction[]>('/auctions', asUser),
  products: (auctionId: string) => api.get<Product[]>(`/auctions/${encodeURIComponent(auctionId)}/products`, asUser),
  register: (auctionId: string) => api.post<{ message: string }>('/auctions/register', { auction_id: auctionId }, asUser),
  bid: (productId: string, amount: number) =>
    api.post<BidPlacedReply>('/bid', { product_id: productId, bid_amount: amount }, asUser),
};
