import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../db/index.js';
import { auctions, bids, products, users } from '../db/schema.js';

export interface UserBidView {
  id: number;
  productId: string;
  productName: string;
  auctionId: string;
  auctionName: string;
  amount: number;
  createdAt: number;
  status: 'success' | 'outbid' | 'failed' | 'rolledback' | 'won';
  reason: string | null;
}

/** A bidder's own bids, newest first (names kept even when the product or auction was deleted). */
export function userBids(db: Db, userId: number, auctionId?: string): UserBidView[] {
  return db.select({
    id: bids.id, productId: bids.productId, productName: products.name, auctionId: bids.auctionId, auctionName: auctions.name,
    amount: bids.amount, createdAt: bids.createdAt, status: bids.status, reason: bids.reason,
  }).from(bids)
    .innerJoin(products, eq(products.id, bids.productId))
    .innerJoin(auctions, eq(auctions.id, bids.auctionId))
    .where(and(eq(bids.userId, userId), auctionId === undefined ? undefined : eq(bids.auctionId, auctionId)))
    .orderBy(desc(bids.id)).all();
}

/** Every bid on a product, newest first, with the bidder's username and the auction's owner. */
export function productBids(db: Db, productId: string) {
  return db.select({
    id: bids.id, auctionId: bids.auctionId, amount: bids.amount, status: bids.status, createdAt: bids.createdAt,
    username: users.username, auctionOwner: auctions.createdBy,
  }).from(bids)
    .innerJoin(users, eq(users.id, bids.userId))
    .innerJoin(auctions, eq(auctions.id, bids.auctionId))
    .where(eq(bids.productId, productId))
    .orderBy(desc(bids.id)).all();
}

/** `alice` → `a***e`: enough to tell bidders apart, not enough to know them. */
export function maskUsername(username: string): string {
  return username.length <= 2 ? `${username[0] ?? ''}***` : `${username[0]}***${username.at(-1)}`;
}

