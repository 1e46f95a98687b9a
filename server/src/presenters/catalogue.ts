import { toRupees, type AdminAuction, type Auction, type Product } from '@auction/shared';
import { auctionStatus, type AuctionView, type ProductView } from '../queries/auctions.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** An auction for a bidder: `registrations` holds at most the caller's own id (DESIGN §3). */
export function presentAuction(a: AuctionView, callerUserId: number | null, now: number): Auction {
  const registered = callerUserId !== null && a.registrations.includes(callerUserId);
  return {
    id: a.id, name: a.name, valid_until: iso(a.validUntil), product_ids: a.productIds,
    registrations: registered ? [callerUserId] : [], registered, product_count: a.productIds.length,
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
    highest_bid: toRupees(p.highest), bid_count: p.bidCount,
  };
}

export { iso };
