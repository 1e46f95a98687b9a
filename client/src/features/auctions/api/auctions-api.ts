import type { Auction, BidPlaced, MessageBody, PlaceBidBody, Product, RegisterForAuctionBody } from '@auction/shared';
import { api } from '../../../lib/api-client';

/** The bidder-side auction calls, always with the user token. */
const asUser = { as: 'user' } as const;

export const auctionsApi = {
  list: () => api.get<Auction[]>('/auctions', asUser),
  products: (auctionId: string) => api.get<Product[]>(`/auctions/${encodeURIComponent(auctionId)}/products`, asUser),
  register: (auctionId: string) =>
    api.post<MessageBody>('/auctions/register', { auction_id: auctionId } satisfies RegisterForAuctionBody, asUser),
  bid: (productId: string, amount: number) =>
    api.post<BidPlaced>('/bid', { product_id: productId, bid_amount: amount } satisfies PlaceBidBody, asUser),
};
