import { minNextBid, toRupees, type AdminAuction, type Auction, type Product } from '@auction/shared';
import type { AuctionView, MyStanding, ProductView } from '../db/index.js';
import { stepsOf } from '../domain/steps.js';
import { buyNowAvailable } from '../domain/decide-bid.js';
import { holdFor } from '../domain/holds.js';
import { auctionStatus, iso, secondsLeft as secondsLeftOf } from './format.js';

/** An auction for a bidder: `registrations` holds at most the caller's own id (no bidder sees who else registered). */
/** `registered`: whether the caller registered (default: from the view's registrations). */
export function presentAuction(
  a: AuctionView, callerUserId: number | null, now: number,
  registered = callerUserId !== null && a.registrations.includes(callerUserId),
): Auction {
  return {
    id: a.id, name: a.name, valid_until: iso(a.validUntil), product_ids: a.productIds,
    registrations: registered && callerUserId !== null ? [callerUserId] : [], registered, product_count: a.productIds.length,
    status: auctionStatus(a, now), ...rulesOf(a),
    cover: a.cover === null ? null : { url: mediaUrl(a.cover.imageName), thumb_url: mediaUrl(a.cover.thumbName) },
    highest_bid: toRupees(a.highest), bid_count: a.bidCount,
  };
}

/** The auction's rules as every shape shows them (docs/bidding.md). */
function rulesOf(a: AuctionView) {
  const steps = stepsOf(a);
  return {
    original_valid_until: iso(a.originalValidUntil), increment_rule: a.incrementRule, increment_amount: toRupees(steps.amount),
    increment_tiers: steps.tiers.map((t) => ({ below: t.below === null ? null : toRupees(t.below), step: toRupees(t.step) })),
    cancel_policy: a.cancelPolicy, soft_close_s: a.softCloseS,
    max_extension_s: a.maxExtensionS, buyer_premium_pct: a.buyerPremiumBp / 100, premium_gst_pct: a.premiumGstPct, extended: a.validUntil > a.originalValidUntil,
  };
}

/** A bidder's count of cancelled bids in an auction, for its seller (docs/bidding.md#cancelling-a-bid). */
export interface BidderCancels { userId: number; username: string; cancels: number }

export function presentAdminAuction(a: AuctionView, now: number, cancels?: BidderCancels[]): AdminAuction {
  return {
    id: a.id, name: a.name, valid_until: iso(a.validUntil), product_ids: a.productIds, registrations: a.registrations,
    product_count: a.productIds.length, status: auctionStatus(a, now), created_by: a.createdBy, created_at: iso(a.createdAt),
    settled_at: a.settledAt === null ? null : iso(a.settledAt), ...rulesOf(a),
    ...(cancels ? { bidder_cancels: cancels.map((c) => ({ user_id: c.userId, username: c.username, cancels: c.cancels })) } : {}),
  };
}

/** Who is looking: an admin (the product's own sees its reserve and configured prices) or a bidder with their standing. */
export type ProductViewer = { adminId: number } | { standing: MyStanding | null; saved?: boolean } | null;

/** Where a rendition is served (outside /api, cached for ever: the name is its content's hash). */
export const mediaUrl = (name: string) => `/media/${name}.webp`;

/** The caller's own state on a lot: leading, won, outbid while it is open, lost once it is over or bought. */
function myStatus(p: ProductView, standing: MyStanding | null): Product['my_status'] {
  if (!standing) return null;
  if (standing.status === 'won') return 'won';
  if (standing.status === 'success') return 'leading';
  return p.auctionOver || p.status === 'sold' ? 'lost' : 'outbid';
}

export function presentProduct(p: ProductView, viewer: ProductViewer = null): Product {
  const owner = viewer !== null && 'adminId' in viewer && viewer.adminId === p.createdBy;
  const standing = viewer !== null && 'standing' in viewer ? viewer.standing : null;
  const open = p.auctionId !== null && !p.auctionOver;
  const buyNow = owner ? p.buyNowPrice : open && buyNowAvailable(p, p.hasBid ? p.highest : null) ? p.buyNowPrice : null;
  const minNext = minNextBid({ steps: stepsOf(p), startingPrice: p.startingPrice, highest: p.highest, hasBid: p.hasBid });
  const terms = { premiumBp: p.buyerPremiumBp, premiumGstPct: p.premiumGstPct, lotGstPct: p.gstPct };
  return {
    id: p.id, name: p.name, description: p.description, status: p.status, auction_id: p.auctionId,
    highest_bid: toRupees(p.highest), bid_count: p.bidCount, version: p.version,
    starting_price: toRupees(p.startingPrice),
    min_next_bid: toRupees(minNext),
    min_next_bid_all_in: toRupees(holdFor(minNext, terms)),
    gst_pct: p.gstPct, buyer_premium_pct: p.buyerPremiumBp / 100, premium_gst_pct: p.premiumGstPct,
    reserve_met: p.reservePrice === null ? null : p.hasBid && p.highest >= p.reservePrice,
    buy_now_price: buyNow === null ? null : toRupees(buyNow),
    my_status: myStatus(p, standing),
    my_max: standing?.status === 'success' && standing.maxAmount !== null ? toRupees(standing.maxAmount) : null,
    ...(owner ? { reserve_price: p.reservePrice === null ? null : toRupees(p.reservePrice), winner: p.status === 'sold' ? p.winner : null } : {}),
    images: p.images.map((i) => ({ id: i.id, url: mediaUrl(i.imageName), thumb_url: mediaUrl(i.thumbName) })),
    category: p.category,
    lot_number: p.lotNumber,
    ...(viewer !== null && 'standing' in viewer && viewer.saved !== undefined ? { saved: viewer.saved } : {}),
  };
}

/** What settling did: the products sold and at what price, and those that went back unsold and why. */
export function presentSettlement(s: { sold: { productId: string; amount: number }[]; unsold: { id: string; reason: 'NO_BIDS' | 'RESERVE_NOT_MET' }[] }) {
  return { sold: s.sold.map((x) => ({ product_id: x.productId, amount: toRupees(x.amount) })), unsold: s.unsold };
}

/** `GET /time-left`: a product's auction end as the countdown needs it. */
export function presentTimeLeft(t: { productId: string; auctionId: string; validUntil: number; settledAt: number | null }, now: number) {
  const ended = t.settledAt !== null || now >= t.validUntil;
  return { product_key: t.productId, auction_id: t.auctionId, valid_until: iso(t.validUntil), seconds_left: ended ? 0 : secondsLeftOf(t.validUntil, now), ended };
}
