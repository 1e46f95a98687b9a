/**
 * Bidding commands: place a bid and cancel a leading bid (with reinstatement). Each runs in one
 * immediate transaction and returns what happened; the caller publishes the events after commit.
 */
import { and, asc, desc, eq, ne, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/index.js';
import { auctions, bids, products, registrations, users } from '../db/schema.js';
import { refuse, type Result } from '../errors.js';
import { decideBid } from './decide-bid.js';
import type { DomainEvent } from './events.js';
import { move, WalletChanges } from './ledger.js';

export type BidRow = typeof bids.$inferSelect;

interface Target {
  product: { id: string; name: string; status: 'available' | 'sold'; auctionId: string | null };
  auction: { id: string; name: string; validUntil: number; settledAt: number | null; createdBy: number } | null;
}

function findTarget(tx: Tx, where: SQL) {
  return tx.select({
    product: { id: products.id, name: products.name, status: products.status, auctionId: products.auctionId },
    auction: { id: auctions.id, name: auctions.name, validUntil: auctions.validUntil, settledAt: auctions.settledAt, createdBy: auctions.createdBy },
  }).from(products).leftJoin(auctions, eq(auctions.id, products.auctionId))
    .where(and(where, sql`${products.deletedAt} is null`));
}

/**
 * `ref` is a product id first; failing that, the name of exactly one product in an open auction
 * (existing clients send the name, DESIGN §3).
 */
function resolveProduct(tx: Tx, ref: string, now: number): Result<{ target: Target }> {
  const byId = findTarget(tx, eq(products.id, ref)).get();
  if (byId) return { ok: true, target: byId };
  const open = sql`${products.name} = ${ref} and ${auctions.settledAt} is null and ${auctions.validUntil} > ${now}`;
  const byName = findTarget(tx, open).limit(2).all();
  if (byName.length === 1) return { ok: true, target: byName[0]! };
  if (byName.length > 1) return refuse('AMBIGUOUS_PRODUCT', `More than one product is called "${ref}"; bid by its product id instead`);
  return refuse('NOT_FOUND', 'Product not found');
}

function leaderOf(tx: Tx, productId: string) {
  return tx.select({ bidId: bids.id, userId: bids.userId, amount: bids.amount })
    .from(bids).where(and(eq(bids.productId, productId), eq(bids.status, 'success'))).get() ?? null;
}

export interface PlacedBid {
  bid: BidRow;
  productName: string;
  auctionName: string;
  /** Paise. */
  highest: number;
  balance: number;
  events: DomainEvent[];
}

export function placeBid(props: { db: Db; userId: number; productRef: string; amount: number; now: number }): Result<PlacedBid> {
  const { db, userId, productRef, amount, now } = props;
  return db.transaction((tx): Result<PlacedBid> => {
    const found = resolveProduct(tx, productRef, now);
    if (!found.ok) return found;
    const { product, auction } = found.target;
    if (!auction) return refuse('PRODUCT_NOT_AVAILABLE', 'This product is not in an auction');

    const bidder = tx.select({ username: users.username, status: users.status, balance: users.walletBalance })
      .from(users).where(eq(users.id, userId)).get();
    if (!bidder) return refuse('NOT_FOUND', 'User not found');
    const registered = tx.select({ one: sql`1` }).from(registrations)
      .where(and(eq(registrations.auctionId, auction.id), eq(registrations.userId, userId))).get() !== undefined;
    const leader = leaderOf(tx, product.id);

    const decision = decideBid({
      bidderId: userId, bidderActive: bidder.status === 'active', balance: bidder.balance, registered,
      productSold: product.status === 'sold', auctionSettled: auction.settledAt !== null, auctionEndsAt: auction.validUntil, leader,
    }, amount, now);

    const base = { userId, productId: product.id, auctionId: auction.id, amount, createdAt: now, updatedAt: now };
    if (!decision.accept) {
      // A refusal is recorded, never debited (DESIGN §4).
      tx.insert(bids).values({ ...base, status: 'failed', reason: decision.code }).run();
      return refuse(decision.code, decision.message);
    }

    const wallets = new WalletChanges();
    const events: DomainEvent[] = [];
    const released = decision.release;
    if (released) {
      // Release the old hold first, so raising one's own lead never passes through a negative balance.
      tx.update(bids).set({ status: 'outbid', updatedAt: now }).where(eq(bids.id, released.bidId)).run();
      const self = released.userId === userId;
      const { balance } = move(tx, {
        userId: released.userId, type: 'refund', amount: released.amount, bidId: released.bidId, productId: product.id, now,
        notes: self ? `Hold released: you raised your bid on ${product.name}` : `Outbid on ${product.name}: hold released`,
      });
      wallets.record(released.userId, balance);
      if (!self) events.push({ type: 'bid:outbid', userId: released.userId, auctionId: auction.id, productId: product.id, productName: product.name, highest: amount });
    }
    const bid = tx.insert(bids).values({ ...base, status: 'success' }).returning().get();
    const { balance } = move(tx, { userId, type: 'bid', amount, bidId: bid.id, productId: product.id, now });
    wallets.record(userId, balance);
    const { bidCount } = tx.update(products).set({ bidCount: sql`${products.bidCount} + 1` })
      .where(eq(products.id, product.id)).returning({ bidCount: products.bidCount }).get();

    events.unshift({
      type: 'bid:placed', auctionId: auction.id, ownerId: auction.createdBy, productId: product.id, bidId: bid.id,
      highest: amount, bidCount, bidderId: userId, bidder: bidder.username, amount, at: now,
    });
    events.push(...wallets.events());
    return { ok: true, bid, productName: product.name, auctionName: auction.name, highest: amount, balance, events };
  }, { behavior: 'immediate' });
}

export interface CancelledBid {
  balance: number;
  highest: number;
  reinstated: { bidId: number; userId: number; amount: number } | null;
  events: DomainEvent[];
}

/**
 * Cancels the caller's leading bid: refund, then reinstate the best covered earlier bid of another
 * active, registered bidder who has not cancelled on this product in this auction (DESIGN §4).
 */
export function cancelBid(props: { db: Db; userId: number; bidId: number; now: number }): Result<CancelledBid> {
  const { db, userId, bidId, now } = props;
  return db.transaction((tx): Result<CancelledBid> => {
    const row = tx.select({
      bid: bids,
      productName: products.name,
      auction: { validUntil: auctions.validUntil, settledAt: auctions.settledAt, createdBy: auctions.createdBy },
    }).from(bids).innerJoin(products, eq(products.id, bids.productId)).innerJoin(auctions, eq(auctions.id, bids.auctionId))
      .where(eq(bids.id, bidId)).get();
    if (!row) return refuse('NOT_FOUND', 'Bid not found');
    const { bid, auction, productName } = row;
    if (bid.userId !== userId) return refuse('FORBIDDEN', 'You can only cancel your own bids');
    if (bid.status !== 'success') return refuse('BID_NOT_ACTIVE', 'Only an active (leading) bid can be cancelled');
    if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
    if (now >= auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended; bids can no longer be cancelled');

    const wallets = new WalletChanges();
    const events: DomainEvent[] = [];
    tx.update(bids).set({ status: 'rolledback', reason: 'CANCELLED', updatedAt: now }).where(eq(bids.id, bid.id)).run();
    const refunded = move(tx, { userId, type: 'refund', amount: bid.amount, bidId: bid.id, productId: bid.productId, now, notes: `Bid on ${productName} cancelled: hold released` });
    wallets.record(userId, refunded.balance);

    const reinstated = reinstateBest(tx, bid, productName, now, wallets, events);
    const bidCount = tx.select({ n: products.bidCount }).from(products).where(eq(products.id, bid.productId)).get()?.n ?? 0;
    const highest = reinstated?.amount ?? 0;
    events.unshift({ type: 'bid:rolledback', auctionId: bid.auctionId, ownerId: auction.createdBy, productId: bid.productId, highest, bidCount });
    events.push(...wallets.events());
    return { ok: true, balance: refunded.balance, highest, reinstated, events };
  }, { behavior: 'immediate' });
}

function reinstateBest(tx: Tx, cancelled: BidRow, productName: string, now: number, wallets: WalletChanges, events: DomainEvent[]) {
  const cancelledBefore = sql`exists (select 1 from ${bids} c where c.product_id = ${bids.productId} and c.auction_id = ${bids.auctionId} and c.user_id = ${bids.userId} and c.status = 'rolledback')`;
  const candidates = tx.select({ bidId: bids.id, userId: bids.userId, amount: bids.amount, balance: users.walletBalance })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.userId))
    .innerJoin(registrations, and(eq(registrations.auctionId, bids.auctionId), eq(registrations.userId, bids.userId)))
    .where(and(
      eq(bids.productId, cancelled.productId), eq(bids.auctionId, cancelled.auctionId), eq(bids.status, 'outbid'),
      ne(bids.userId, cancelled.userId), eq(users.status, 'active'), sql`not ${cancelledBefore}`,
    ))
    .orderBy(desc(bids.amount), asc(bids.id))
    .all();
  // Bids whose owner can no longer pay are skipped; the first covered one leads again.
  const next = candidates.find((c) => c.balance >= c.amount);
  if (!next) return null;
  tx.update(bids).set({ status: 'success', updatedAt: now }).where(eq(bids.id, next.bidId)).run();
  const { balance } = move(tx, {
    userId: next.userId, type: 'bid', amount: next.amount, bidId: next.bidId, productId: cancelled.productId, now,
    notes: `Bid on ${productName} reinstated: a higher bid was cancelled`,
  });
  wallets.record(next.userId, balance);
  events.push({ type: 'bid:reinstated', userId: next.userId, auctionId: cancelled.auctionId, productId: cancelled.productId, amount: next.amount });
  return { bidId: next.bidId, userId: next.userId, amount: next.amount };
}
