/**
 * Bidding commands: place a bid, buy now, top up a wallet (cancelling a leading bid is cancelling.ts). Each
 * loads the few rows it needs through the unit of work (locking, on PostgreSQL, the product first,
 * then the wallets in ascending id order), lets a pure function decide, and has the store apply the
 * change set. Run them through `Commands`, which publishes their events after the commit.
 */
import { formatRupees, toRupees } from '@auction/shared';
import type { Applied, BidRow, ChangeSet, LotUnitOfWork, PreparedChange, TransactionRow, UnitOfWork } from '../db/index.js';
import { heldBy, holdFor, termsOf } from './holds.js';
import { refuse, type Result } from '../errors.js';
import { buyNowAvailable, decideBid, refusedBid, type BidAsk } from './decide-bid.js';
import type { Commands } from './commands.js';
import type { DomainEvent } from './events.js';
import { walletEvents } from './wallets.js';
import { boughtNowNotices, extendedNotices, noticeEvents, outbidByBuyNowNotice } from './notices.js';

export interface BidCommand {
  userId: number;
  /** A product id, or the name of one product in an open auction. */
  productRef: string;
  /** Paise: a plain bid, or with `max` the least to start at (null: the lowest price that leads). */
  amount: number | null;
  /** Paise: a maximum (proxy) bid; null or left out for a plain bid. */
  max?: number | null;
}

export interface PlacedBid {
  bid: BidRow;
  productName: string;
  auctionName: string;
  /** Paise. */
  highest: number;
  balance: number;
  /** The product's version after this bid. */
  version: number;
  leading: boolean;
  max: number | null;
  minNext: number;
  /** Paise: what a win at `minNext` costs in all (docs/money.md#all-in-prices). */
  minNextAllIn: number;
  events: DomainEvent[];
}

/**
 * `ref` is a product id first; failing that, the name of a product in an open auction (existing clients
 * send the name): the only one so called, else the only one so called in an auction the bidder is
 * registered for; a name that still leaves more than one is 409 AMBIGUOUS_PRODUCT.
 */
export async function placeBid(tx: UnitOfWork, cmd: BidCommand, now: number): Promise<Result<PlacedBid>> {
  const prepared = await prepareBid(tx, cmd, now);
  if (!prepared.ok) return prepared;
  return { ok: true, ...prepared.finish(await tx.apply(prepared.changes, now)) };
}

/**
 * A bid as the server places it: in its lot's next batch where the store decides a lot's bids together
 * (PostgreSQL's lanes), else in a transaction of its own; its events published once committed.
 */
export function submitBid(commands: Commands, cmd: BidCommand, now: number) {
  return commands.onLot({ productRef: cmd.productRef, userId: cmd.userId, now, prepare: (tx) => prepareBid(tx, cmd, now) });
}

/**
 * A bid decided, not yet written: `placeBid` applies it at once; PostgreSQL's lot batches
 * (db/postgres/lot-batch.ts) decide several bids on one lot in turn and write them together. A refused
 * bid is recorded here (through `tx.apply`) and returned as the refusal.
 */
export async function prepareBid(tx: LotUnitOfWork, cmd: BidCommand, now: number): Promise<Result<PreparedChange<PlacedBid>>> {
  const { userId, productRef } = cmd;
  const ask: BidAsk = { amount: cmd.amount, max: cmd.max ?? null };
  // The id first (the usual case: one statement that also locks); a name only when no product has that id.
  let target = await tx.lockProduct(productRef);
  if (!target) {
    const named = pickNamed(await tx.openProductsByName(productRef, now, userId));
    if (named === 'ambiguous') return refuse('AMBIGUOUS_PRODUCT', `More than one product is called "${productRef}"; bid by its product id instead`);
    target = named === null ? null : await tx.lockProduct(named.id);
  }
  if (!target) return refuse('NOT_FOUND', 'Product not found');
  const { product, auction } = target;
  if (!auction) return refuse('PRODUCT_NOT_AVAILABLE', 'This product is not in an auction');

  // The product is locked: its leader cannot change until we commit. Then both wallets that may move.
  const leader = await tx.leader(product.id);
  const wallets = await tx.lockWallets(leader ? [userId, leader.userId] : [userId]);
  const bidder = wallets.get(userId);
  if (!bidder) return refuse('NOT_FOUND', 'User not found');
  const registered = await tx.isRegistered(auction.id, userId);

  // Raising one's own maximum: the runner-up's top prices it (a price held at the old maximum gets its step).
  const runnerUp = leader?.userId === userId ? await tx.runnerUpTop(product.id, auction.id, userId) : null;
  const state = { bidder, registered, product, auction, runnerUp, leader: leader && { ...leader, username: wallets.get(leader.userId)?.username ?? '' } };
  const decision = decideBid(state, ask, now);
  if (!decision.ok) {
    if (decision.recorded !== false) await tx.apply(refusedBid(state, ask, decision), now);
    return decision;
  }
  // Soft close moved the end: the auction's other bidders and savers are told (docs/notifications.md).
  const end = decision.changes.auctions?.find((a) => a.id === auction.id)?.set.validUntil;
  if (end !== undefined && end !== auction.validUntil) {
    const followers = await tx.followersOf(auction.id, { savers: true });
    decision.changes.notices = [...decision.changes.notices ?? [], ...extendedNotices(followers, {
      auctionId: auction.id, auctionName: auction.name, productId: product.id, productName: product.name, bidderId: userId, oldEnd: auction.validUntil, newEnd: end, now,
    })];
  }
  // A raise of one's own maximum writes no new bid: the answer shows the leading bid as this change leaves it.
  const shown = decision.shown === null ? null : (await tx.bidWithContext(decision.shown.bidId))!.bid;
  return {
    ok: true,
    changes: decision.changes,
    finish: (applied) => ({
      bid: applied.newBid ?? { ...shown!, amount: decision.shown!.amount, maxAmount: decision.max, updatedAt: now },
      productName: product.name, auctionName: auction.name, highest: decision.highest,
      balance: applied.balances.get(userId) ?? bidder.balance, version: product.version + 1,
      leading: decision.leading, max: decision.max, minNext: decision.minNext, minNextAllIn: decision.minNextAllIn, events: decision.events(applied),
    }),
  };
}

/** The product a name picks among `open` (registered auctions first, as the store reads them), if any. */
function pickNamed(open: { id: string; registered: boolean }[]): { id: string } | 'ambiguous' | null {
  const [first, second] = open;
  if (!first) return null;
  if (!second) return first;
  return first.registered && !second.registered ? first : 'ambiguous';
}

/** Adds money to a bidder's wallet: one ledger row, one balance change. */
export async function topUp(tx: UnitOfWork, cmd: { userId: number; amount: number }, now: number): Promise<Result<{ transaction: TransactionRow; balance: number; events: DomainEvent[] }>> {
  const applied = await tx.apply({ moves: [{ userId: cmd.userId, type: 'topup', amount: cmd.amount }] }, now);
  return { ok: true, transaction: applied.transactions[0]!, balance: applied.balances.get(cmd.userId)!, events: walletEvents(applied) };
}

export interface BoughtNow {
  bid: BidRow;
  productName: string;
  auctionName: string;
  balance: number;
  version: number;
  events: DomainEvent[];
}

/**
 * Buys a lot at its buy-now price (docs/bidding.md#buy-now): while it has no bid, or, with a reserve,
 * while the highest bid is below it. The buyer pays at once (a `won` bid marked buy-now), the lot is
 * sold, and a leading hold is refunded. The product lock makes two buyers at once one sale and one
 * BUY_NOW_UNAVAILABLE.
 */
export async function buyNow(tx: UnitOfWork, cmd: { userId: number; productId: string }, now: number): Promise<Result<BoughtNow>> {
  const prepared = await prepareBuyNow(tx, cmd, now);
  if (!prepared.ok) return prepared;
  return { ok: true, ...prepared.finish(await tx.apply(prepared.changes, now)) };
}

/** A buy-now as the server makes it (see submitBid). */
export function submitBuyNow(commands: Commands, cmd: { userId: number; productId: string }, now: number) {
  return commands.onLot({ productRef: cmd.productId, userId: cmd.userId, now, prepare: (tx) => prepareBuyNow(tx, cmd, now) });
}

/** A buy-now decided, not yet written (see prepareBid). */
export async function prepareBuyNow(tx: LotUnitOfWork, cmd: { userId: number; productId: string }, now: number): Promise<Result<PreparedChange<BoughtNow>>> {
  const target = await tx.lockProduct(cmd.productId);
  if (!target) return refuse('NOT_FOUND', 'Product not found');
  const { product, auction } = target;
  if (!auction) return refuse('PRODUCT_NOT_AVAILABLE', 'This product is not in an auction');
  const leader = await tx.leader(product.id);
  const wallets = await tx.lockWallets(leader ? [cmd.userId, leader.userId] : [cmd.userId]);
  const buyer = wallets.get(cmd.userId);
  if (!buyer) return refuse('NOT_FOUND', 'User not found');
  if (buyer.status !== 'active') return refuse('ACCOUNT_INACTIVE', 'This account has been deactivated');
  if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
  if (now >= auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended');
  if (!(await tx.isRegistered(auction.id, cmd.userId))) return refuse('NOT_REGISTERED', 'Register for this auction before buying');
  const price = product.buyNowPrice;
  if (price === null || !buyNowAvailable(product, leader?.amount ?? null)) {
    return refuse('BUY_NOW_UNAVAILABLE', product.status === 'sold' ? 'This product has already been sold' : 'This product can no longer be bought at its buy-now price');
  }
  const self = leader?.userId === buyer.id;
  const ownHold = self ? heldBy(leader) : 0;
  // The buyer pays the all-in price at once (docs/money.md#all-in-prices).
  const total = holdFor(price, termsOf(auction, product));
  if (buyer.balance + ownHold < total) {
    return refuse('INSUFFICIENT_FUNDS', `Insufficient wallet balance: ${formatRupees(toRupees(buyer.balance + ownHold))} available for this purchase`);
  }
  const changes: ChangeSet = {
    bids: [],
    moves: [],
    newBid: { userId: buyer.id, productId: product.id, auctionId: auction.id, amount: price, buyNow: true, status: 'won', reason: null },
    products: [{ id: product.id, set: { status: 'sold', soldPrice: price, winnerId: buyer.id, bidCount: product.bidCount + 1, version: product.version + 1 } }],
  };
  if (leader) {
    changes.bids!.push({ id: leader.bidId, status: 'outbid' });
    changes.moves!.push({
      userId: leader.userId, type: 'refund', amount: heldBy(leader), bidId: leader.bidId, productId: product.id,
      notes: self ? `Hold released: you bought ${product.name} at its buy-now price` : `${product.name} was bought at its buy-now price: hold released`,
    });
  }
  changes.moves!.push({
    userId: buyer.id, type: 'bid', amount: total, bidId: 'new', productId: product.id,
    notes: `Bought ${product.name} at its buy-now price` + (total === price ? '' : ` of ${formatRupees(toRupees(price))}: ${formatRupees(toRupees(total))} in all (premium and GST)`),
  });
  // The leader is told they were outbid; the lot's other bidders and savers that it was bought (docs/notifications.md).
  const lot = { auctionId: auction.id, productId: product.id, productName: product.name };
  const outbid = leader && !self ? leader.userId : null;
  const followers = await tx.followersOf(auction.id, { productIds: [product.id], savers: true });
  changes.notices = [
    ...(outbid === null ? [] : [outbidByBuyNowNotice(outbid, lot, price, now)]),
    ...boughtNowNotices(followers, lot, price, outbid === null ? [buyer.id] : [buyer.id, outbid]),
  ];
  const finish = (applied: Applied): BoughtNow => ({
    bid: applied.newBid!, productName: product.name, auctionName: auction.name,
    balance: applied.balances.get(buyer.id)!, version: product.version + 1,
    events: [
      { type: 'product:sold', auctionId: auction.id, ownerId: auction.createdBy, productId: product.id, amount: price, version: product.version + 1, buyNow: true },
      ...(leader && !self ? [{ type: 'bid:outbid' as const, userId: leader.userId, auctionId: auction.id, productId: product.id, productName: product.name, highest: price }] : []),
      { type: 'bid:won', userId: buyer.id, auctionId: auction.id, productId: product.id, amount: price },
      ...walletEvents(applied),
      ...noticeEvents(applied),
    ],
  });
  return { ok: true, changes, finish };
}
