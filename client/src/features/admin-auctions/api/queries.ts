/**
 * The admin auctions' server data as TanStack queries: the signed-in admin's own auctions and one
 * auction's detail page. Both fold the admin room's live events in (`foldable`: a change made while a
 * read is on its way applies to its reply too).
 */
import { queryOptions } from '@tanstack/react-query';
import type { AdminAuction } from '@auction/shared';
import { foldable } from '../../../lib/live-query';
import { boughtNowOf, mergeFeeds, toFeed, type DetailData } from '../lib/live-feed';
import { adminApi } from './admin-api';

/** Every admin auctions query starts with this key. */
export const adminAuctionsKey = ['admin', 'auctions'] as const;
export const myAuctionsKey = [...adminAuctionsKey, 'mine'] as const;
export const auctionDetailKey = (auctionId: string) => [...adminAuctionsKey, 'detail', auctionId] as const;

/** GET /admin/auctions/my: the signed-in admin's auctions, newest first. */
export const myAuctionsQuery = () => queryOptions({
  queryKey: myAuctionsKey,
  queryFn: foldable<AdminAuction[]>(() => adminApi.myAuctions()),
});

/** The auction, then its products, then each product's history (a product whose history fails shows none). */
export async function readDetail(auctionId: string): Promise<DetailData> {
  const auction = await adminApi.auction(auctionId);
  const products = await adminApi.products(auctionId);
  const bids = await Promise.all(products.map((p) => adminApi.lotHistory(p.id).then((page) => toFeed(p.id, auction.id, page.bids), () => [])));
  const feed = mergeFeeds(...bids);
  return { auction, products, feed, boughtNow: boughtNowOf(auction, products, feed) };
}

/** An auction's detail page: the auction, its products and every product's history merged newest first. */
export const auctionDetailQuery = (auctionId: string) => queryOptions({
  queryKey: auctionDetailKey(auctionId),
  queryFn: foldable<DetailData>(() => readDetail(auctionId)),
});

