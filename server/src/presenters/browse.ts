import { minNextBid, toRupees, type AuctionCard, type LotCard } from '@auction/shared';
import type { AuctionView, LotSearchHit } from '../db/index.js';
import { stepsOf } from '../domain/steps.js';
import { buyNowAvailable } from '../domain/decide-bid.js';
import { mediaUrl } from './catalogue.js';
import { auctionStatus, iso } from './format.js';

/** An auction as Browse's cards show it (docs/catalogue.md#paged-auctions). */
export function presentAuctionCard(a: AuctionView, now: number, registered: boolean): AuctionCard {
  return {
    id: a.id, name: a.name, valid_until: iso(a.validUntil), status: auctionStatus(a, now), product_count: a.productIds.length,
    bid_count: a.bidCount, highest_bid: toRupees(a.highest),
    cover: a.cover === null ? null : { url: mediaUrl(a.cover.imageName), thumb_url: mediaUrl(a.cover.thumbName) },
    registered,
  };
}

/** A lot as the catalogue's pages show it (docs/catalogue.md): never the reserve. */
export function presentLotCard(h: LotSearchHit): LotCard {
  const p = h.product;
  const cover = p.images[0];
  const open = !p.auctionOver;
  return {
    id: p.id, lot_number: p.lotNumber, name: p.name,
    cover: cover === undefined ? null : { url: mediaUrl(cover.imageName), thumb_url: mediaUrl(cover.thumbName) },
    highest_bid: toRupees(p.highest), bid_count: p.bidCount,
    min_next_bid: toRupees(minNextBid({ steps: stepsOf(p), startingPrice: p.startingPrice, highest: p.highest, hasBid: p.hasBid })),
    buy_now_price: open && buyNowAvailable(p, p.hasBid ? p.highest : null) && p.buyNowPrice !== null ? toRupees(p.buyNowPrice) : null,
    category: p.category,
    auction: { id: h.auction.id, name: h.auction.name, valid_until: iso(h.auction.validUntil) },
  };
}
