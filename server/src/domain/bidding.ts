/**
 * Bidding commands: place a bid and cancel a leading bid (with reinstatement). Each runs in one
 * immediate transaction and returns what happened; the caller publishes the events after commit.
 */
import { and, asc, desc, eq, isNull, ne, sql, type SQL } from 'drizzle-orm';
import { prepareOnce, type Db, type Tx } from '../db/index.js';
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

const statements = prepareOnce((db) => {
  const p = sql.placeholder;
  const target = (where: SQL) => db.select({
    product: { id: products.id, name: products.name, status: products.status, auctionId: products.auctionId },
    auction: { id: auctions.id, name: auctions.name, validUntil: auctions.validUntil, settledAt: auctions.settledAt, createdBy: auctions.createdBy },
  }).from(products).leftJoin(auctions, eq(auctions.id, products.auctionId))
    .where(and(where, isNull(products.deletedAt)));
  return {
    targetById: target(eq(products.id, p('ref'))).prepare(),
    targetByOpenName: target(sql`${products.name} = ${p('ref')} and ${auctions.settledAt} is null and ${auctions.validUntil} > ${p('now')}`)
      .limit(2).prepare(),
    bidder: db.select({ username: users.username, status: users.status, balance: users.walletBalance })
      .from(users).where(eq(users.id, p('userId'))).prepare(),
    registered: db.select({ one: sql<number>`1` }).from(registrations)
      .where(and(eq(registrations.auctionId, p('auctionId')), eq(registrations.userId, p('userId')))).prepare(),
    leader: db.select({ bidId: bids.id, userId: bids.userId, amount: bids.amount })
      .from(bids).where(and(eq(bids.productId, p('productId')), eq(bids.status, 'success'))).prepare(),
    markOutbid: db.update(bids).set({ status: 'outbid', updatedAt: sql`${p('now')}` }).where(eq(bids.id, p('bidId'))).prepare(),
    insert: db.insert(bids).values({
      userId: p('userId'), productId: p('productId'), auctionId: p('auctionId'), amount: p('amount'),
      status: p('status'), reason: p('reason'), createdAt: p('now'), updatedAt: p('now'),
    }).returning().prepare(),
    countBid: db.update(products).set({ bidCount: sql`${products.bidCount} + 1` })
      .where(eq(products.id, p('productId'))).returning({ bidCount: products.bidCount }).prepare(),
  };
});

/**
 * `ref` is a product id first; failing that, the name of exactly one product in an open auction
 * (existing clients send the name, DESIGN §3).
 */
function resolveProduct(db: Db, ref: string, now: number): Result<{ target: Target }> {
  const s = statements(db);
  const byId = s.targetById.get({ ref });
  if (byId) return { ok: true, target: byId };
  const byName = s.targetByOpenName.all({ ref, now });
  if (byName.length === 1) return { ok: true, target: byName[0]! };
  if (byName.length > 1) return refuse('AMBIGUOUS_PRODUCT', `More than one product is called "${ref}"; bid by its product id instead`);
  return refuse('NOT_FOUND', 'Product not found');
}

export interface BidCommand {
  userId: number;
  /** A product id, or the name of one product in an open auction. */
  productRef: string;
  /** Paise. */
  amount: number;
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

/**
 * Decides one bid and applies it, without opening a transaction: the caller holds one (`placeBid`
 * for a single bid, `BidBatcher` for the bids of one event-loop turn). A constant number of prepared,
 * indexed statements: four reads, then either one insert (refused) or up to eight writes (accepted).
 */
export function applyBid(db: Db, cmd: BidCommand, now: number): Result<PlacedBid> {
  const { userId, productRef, amount } = cmd;
  const s = statements(db);
  const found = resolveProduct(db, productRef, now);
  if (!found.ok) return found;
  const { product, auction } = found.target;
  if (!auction) return refuse('PRODUCT_NOT_AVAILABLE', 'This product is not in an auction');

  const bidder = s.bidder.get({ userId });
  if (!bidder) return refuse('NOT_FOUND', 'User not found');
  const registered = s.registered.get({ auctionId: auction.id, userId }) !== undefined;
  const leader = s.leader.get({ productId: product.id }) ?? null;

  const decision = decideBid({
    bidderId: userId, bidderActive: bidder.status === 'active', balance: bidder.balance, registered,
    productSold: product.status === 'sold', auctionSettled: auction.settledAt !== null, auctionEndsAt: auction.validUntil, leader,
  }, amount, now);

  const base = { userId, productId: product.id, auctionId: auction.id, amount, now };
  if (!decision.accept) {
    // A refusal is recorded, never debited (DESIGN §4).
    s.insert.get({ ...base, status: 'failed', reason: decision.code });
    return refuse(decision.code, decision.message);
  }

  const wallets = new WalletChanges();
  const events: DomainEvent[] = [];
  const released = decision.release;
  if (released) {
    // Release the old hold first, so raising one's own lead never passes through a negative balance.
    s.markOutbid.run({ bidId: released.bidId, now });
    const self = released.userId === userId;
    const { balance } = move(db, {
      userId: released.userId, type: 'refund', amount: released.amount, bidId: released.bidId, productId: product.id, now,
      notes: self ? `Hold released: you raised your bid on ${product.name}` : `Outbid on ${product.name}: hold released`,
    });
    wallets.record(released.userId, balance);
    if (!self) events.push({ type: 'bid:outbid', userId: released.userId, auctionId: auction.id, productId: product.id, productName: product.name, highest: amount });
  }
  const bid = s.insert.get({ ...base, status: 'success', reason: null });
  if (!bid) throw new Error('bidding: insert returned no row');
  const { balance } = move(db, { userId, type: 'bid', amount, bidId: bid.id, productId: product.id, now });
  wallets.record(userId, balance);
  const counted = s.countBid.get({ productId: product.id });
  if (!counted) throw new Error('bidding: product vanished');

  events.unshift({
    type: 'bid:placed', auctionId: auction.id, ownerId: auction.createdBy, productId: product.id, bidId: bid.id,
    highest: amount, bidCount: counted.bidCount, bidderId: userId, bidder: bidder.username, amount, at: now,
  });
  events.push(...wallets.events());
  return { ok: true, bid, productName: product.name, auctionName: auction.name, highest: amount, balance, events };
}

/** Places one bid in its own immediate transaction. */
export function placeBid(props: { db: Db; userId: number; productRef: string; amount: number; now: number }): Result<PlacedBid> {
  const { db, now, ...cmd } = props;
  return db.$client.transaction(() => applyBid(db, cmd, now)).immediate();
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
    const refunded = move(db, { userId, type: 'refund', amount: bid.amount, bidId: bid.id, productId: bid.productId, now, notes: `Bid on ${productName} cancelled: hold released` });
    wallets.record(userId, refunded.balance);

    const reinstated = reinstateBest(db, tx, bid, productName, now, wallets, events);
    const bidCount = tx.select({ n: products.bidCount }).from(products).where(eq(products.id, bid.productId)).get()?.n ?? 0;
    const highest = reinstated?.amount ?? 0;
    events.unshift({ type: 'bid:rolledback', auctionId: bid.auctionId, ownerId: auction.createdBy, productId: bid.productId, highest, bidCount });
    events.push(...wallets.events());
    return { ok: true, balance: refunded.balance, highest, reinstated, events };
  }, { behavior: 'immediate' });
}

function reinstateBest(db: Db, tx: Tx, cancelled: BidRow, productName: string, now: number, wallets: WalletChanges, events: DomainEvent[]) {
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
  const { balance } = move(db, {
    userId: next.userId, type: 'bid', amount: next.amount, bidId: next.bidId, productId: cancelled.productId, now,
    notes: `Bid on ${productName} reinstated: a higher bid was cancelled`,
  });
  wallets.record(next.userId, balance);
  events.push({ type: 'bid:reinstated', userId: next.userId, auctionId: cancelled.auctionId, productId: cancelled.productId, amount: next.amount });
  return { bidId: next.bidId, userId: next.userId, amount: next.amount };
}
