import { toRupees, type AdminAuction, type Auction, type Product } from '@auction/shared';
import type { AuctionView, ProductView } from '../db/index.js';
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
    status: auctionStatus(a, now),
  };
}

export function presentAdminAuction(a: AuctionView, now: number): AdminAuction {
  return {
    id: a.id, name: a.name, valid_until: iso(a.validUntil), product_ids: a.productIds, registrations: a.registrations,
    product_count: a.productIds.length, status: auctionStatus(a, now), created_by: a.createdBy, created_at: iso(a.createdAt),
    settled_at: a.settledAt === null ? null : iso(a.settledAt),
  };
}

export function presentProduct(p: ProductView): Product {
  return {
    id: p.id, name: p.name, description: p.description, status: p.status, auction_id: p.auctionId,
    highest_bid: toRupees(p.highest), bid_count: p.bidCount, version: p.version,
  };
}

/** What settling did: the products sold and at what price, and those that went back unsold. */
export function presentSettlement(s: { sold: { productId: string; amount: number }[]; unsold: string[] }) {
  return { sold: s.sold.map((x) => ({ product_id: x.productId, amount: toRupees(x.amount) })), unsold: s.unsold };
}

/** `GET /time-left`: a product's auction end as the countdown needs it. */
export function presentTimeLeft(t: { productId: string; auctionId: string; validUntil: number; settledAt: number | null }, now: number) {
  const ended = t.settledAt !== null || now >= t.validUntil;
  return { product_key: t.productId, auction_id: t.auctionId, valid_until: iso(t.validUntil), seconds_left: ended ? 0 : secondsLeftOf(t.validUntil, now), ended };
}
