import type { Auction, Product } from '@auction/shared';
import { api } from '../api-client';

/** The bidder-side calls, always with the user token. */
const asUser = { as: 'user' } as const;

/** What a bid asks: a plain amount, a maximum the server bids up to (proxy), or both (amount ≤ max). Rupees. */
export interface BidAsk {
  amount?: number;
  max?: number;
}

/** The catalogue every bidder page shows: the auctions and each auction's products. */
export const catalogueApi = {
  list: () => api.get<Auction[]>('/auctions', asUser),
  products: (auctionId: string) => api.get<Product[]>(`/auctions/${encodeURIComponent(auctionId)}/products`, asUser),
};
