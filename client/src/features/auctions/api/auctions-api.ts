import type { BidPlaced, BoughtNow, BuyNowBody, LotHistoryPage, LotPage, MessageBody, PlaceBidBody, RegisterForAuctionBody } from '@auction/shared';
import { api } from '../../../lib/api-client';
import { catalogueApi, type BidAsk } from '../../../lib/catalogue';

export type { BidAsk };

/** The bidder-side auction calls, always with the user token. */
const asUser = { as: 'user' } as const;


export const auctionsApi = {
  ...catalogueApi,
  /** The lot page: the product with its auction and its history, highest first (GET /products/{id}). */
  lot: (productId: string) => api.get<LotPage>(`/products/${encodeURIComponent(productId)}`, asUser),
  /** More of a lot's history: the page after `before` (a page's `next_before`), at most `limit` entries (GET /products/{id}/bids). */
  lotHistory: (productId: string, before: string, limit?: number) =>
    api.get<LotHistoryPage>(`/products/${encodeURIComponent(productId)}/bids`, { ...asUser, query: { before, ...(limit === undefined ? {} : { limit }) } }),
  register: (auctionId: string) =>
    api.post<MessageBody>('/auctions/register', { auction_id: auctionId } satisfies RegisterForAuctionBody, asUser),
  bid: (productId: string, { amount, max }: BidAsk) =>
    api.post<BidPlaced>('/bid', {
      product_id: productId,
      ...(amount === undefined ? {} : { bid_amount: amount }),
      ...(max === undefined ? {} : { max_amount: max }),
    } satisfies PlaceBidBody, asUser),
  buyNow: (productId: string) => api.post<BoughtNow>('/buy-now', { product_id: productId } satisfies BuyNowBody, asUser),
};
