import type { Product } from '@auction/shared';
import { api } from '../api-client';

/** The bidder-side calls, always with the user token. */
const asUser = { as: 'user' } as const;

/** What a bid asks: a plain amount, a maximum the server bids up to (proxy), or both (amount ≤ max). Rupees. */
export interface BidAsk {
  amount?: number;
  max?: number;
}

/** The lots every bidder page shows: each auction's products (the auctions come a page at a time: browse-store.ts). */
export const catalogueApi = {
  products: (auctionId: string) => api.get<Product[]>(`/auctions/${encodeURIComponent(auctionId)}/products`, asUser),
};
