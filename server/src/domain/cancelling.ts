/**
 * Cancelling a leading bid (docs/bidding.md#cancelling): the auction's cancel policy and the caps per
 * lot and per auction, the refund, and the best covered earlier bid leading again (reinstatement);
 * and releasing every lead of a bidder whose account is closed. Run through `Commands`, as bidding.ts.
 */
import { formatRupees, minNextBid, toRupees } from '@auction/shared';
import type { Applied, AuctionRow, AutoRaise, BidRow, ChangeSet, Hold, ProductRow, UnitOfWork, Wallet } from '../db/index.js';
import { heldBy, termsOf } from './holds.js';
import { stepsOf } from './steps.js';
import { refuse, type Result } from '../errors.js';
import { buyNowAvailable } from './decide-bid.js';
import type { DomainEvent } from './events.js';
import { walletEvents } from './wallets.js';
import { nextLeader } from './reprice.js';
import { noticeEvents, reinstatedNotice } from './notices.js';

export interface CancelledBid {
  balance: number;
  highest: number;
  reinstated: Hold | null;
  events: DomainEvent[];
}

interface CancelState {
  bid: BidRow;
  productName: string;
  /** The lot's pricing, for its new leader's price and the figures the live event carries. */
  lot: Pick<ProductRow, 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'status' | 'gstPct'>;
  auction: Pick<AuctionRow, 'id' | 'validUntil' | 'originalValidUntil' | 'settledAt' | 'createdBy' | 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'cancelPolicy' | 'buyerPremiumBp' | 'premiumGstPct'>;
  /** The lot's bid count before this change, as its rows say (UnitOfWork.lotBidCount). */
  bidCount: number;
  /** The product's version before this change (docs/live-protocol.md#versions-and-applying-events). */
  version: number;
  /** The bids that may lead again; see UnitOfWork.reinstatementCandidates. */
  candidates: Hold[];
  /** The automatic raises (not cancelled) of the bid that stops leading and of every candidate. */
  autoRaises: AutoRaise[];
  wallets: Map<number, Wallet>;
}

/**
 * How many of their bids a bidder may cancel on one lot, and in one auction (docs/bidding.md#cancelling-a-bid).
 * A bid and its cancel cost the lot's leader an outbid and a reinstatement, two ledger rows and, late in
 * a soft-close auction, an extension of its end: without a bound, a bid-and-cancel loop did all of that
 * for free as often as the bidder liked.
 */
export const CANCELS_PER_LOT = 3;
export const CANCELS_PER_AUCTION = 6;

/** The `strict` cancel policy: a bid may be cancelled only this soon after it was placed, and never this close to the end. */
export const STRICT_CANCEL_WINDOW_MS = 10 * 60_000;
export const STRICT_NO_CANCEL_BEFORE_END_MS = 60 * 60_000;

/** Why the auction's cancel policy refuses cancelling `bid` now, in the bidder's words; null when it allows it. */
export function strictCancelRefusal(auction: Pick<AuctionRow, 'cancelPolicy' | 'validUntil'>, bid: Pick<BidRow, 'createdAt'>, now: number): string | null {
  if (auction.cancelPolicy !== 'strict') return null;
  if (auction.validUntil - now < STRICT_NO_CANCEL_BEFORE_END_MS) return 'Bids in this auction cannot be cancelled in its last hour';
  if (now - bid.createdAt > STRICT_CANCEL_WINDOW_MS) return 'Bids in this auction can be cancelled only within 10 minutes of being placed; this bid can no longer be cancelled';
  return null;
}

/** The bidder's cancelled bids so far: in the auction, and of them on the lot. */
export interface CancelCount { auction: number; lot: number }

/**
 * Cancelling a leading bid (docs/money.md), decided: the refund, then the best candidate whose owner can
 * still cover it leads again (bids that cannot be covered are skipped). Refused once the bidder has
 * cancelled CANCELS_PER_LOT bids on the lot or CANCELS_PER_AUCTION in the auction, and when the
 * auction's `strict` cancel policy forbids it (`strictCancelRefusal`).
 */
export function decideCancel(s: CancelState, userId: number, now: number, cancels: CancelCount): Result<{ changes: ChangeSet; events: (applied: Applied) => DomainEvent[]; next: Hold | null; held: number }> {
  const { bid, auction, productName } = s;
  if (bid.userId !== userId) return refuse('FORBIDDEN', 'You can only cancel your own bids');
  if (bid.status !== 'success') return refuse('BID_NOT_ACTIVE', 'Only an active (leading) bid can be cancelled');
  if (auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
  if (now >= auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended; bids can no longer be cancelled');
  const strict = strictCancelRefusal(auction, bid, now);
  if (strict) return refuse('CANCEL_NOT_ALLOWED', strict);
  if (cancels.lot >= CANCELS_PER_LOT) {
    return refuse('CANCEL_NOT_ALLOWED', `You have already cancelled ${CANCELS_PER_LOT} bids on ${productName}; this bid can no longer be cancelled`);
  }
  if (cancels.auction >= CANCELS_PER_AUCTION) {
    return refuse('CANCEL_NOT_ALLOWED', `You have already cancelled ${CANCELS_PER_AUCTION} bids in this auction; this bid can no longer be cancelled`);
  }
  return { ok: true, ...decideRelease(s, 'CANCELLED', `Bid on ${productName} cancelled: hold released`, now, true) };
}

/** A cancel moves the end back no closer than this to the moment of the cancel. */
export const UNDO_EXTENSION_FLOOR_MS = 60_000;

/**
 * A leading bid stops leading (cancelled, or its bidder deactivated): its hold is refunded with
 * `notes`, its automatic raises are cancelled with it, and the lot stands as it would had the bid
 * never been placed (docs/bidding.md#cancelling-a-bid): the best remaining bid leads, priced against
 * the others that remain (`nextLeader`), its automatic raises above that price cancelled too. With
 * `undoExtension` (a cancel), an extension of the end that this bid made is undone while the end is
 * still the one it set, never to less than UNDO_EXTENSION_FLOOR_MS after `now`. `s.wallets` must hold
 * every candidate's wallet as it is now.
 */
export function decideRelease(
  s: CancelState, reason: 'CANCELLED' | 'ACCOUNT_INACTIVE', notes: string, now: number, undoExtension = false,
): { changes: ChangeSet; events: (applied: Applied) => DomainEvent[]; next: Hold | null; held: number } {
  const { bid, auction, productName, lot } = s;
  const found = nextLeader(s.candidates, (userId) => s.wallets.get(userId)?.balance ?? 0, { steps: stepsOf(auction), startingPrice: lot.startingPrice, reservePrice: lot.reservePrice, allIn: termsOf(auction, lot) });
  const next = found?.hold ?? null;
  const undone = s.autoRaises.filter((x) => x.bidId === bid.id || (next !== null && x.bidId === next.bidId && x.amount > next.amount)).map((x) => x.id);
  const bidCount = Math.max(0, s.bidCount - 1 - undone.length);
  const back = undoExtension && bid.extendedTo !== null && bid.extendedFrom !== null && auction.validUntil === bid.extendedTo
    ? Math.min(auction.validUntil, Math.max(bid.extendedFrom, now + UNDO_EXTENSION_FLOOR_MS)) : auction.validUntil;
  const changes: ChangeSet = {
    bids: [{ id: bid.id, status: 'rolledback', reason }],
    moves: [{ userId: bid.userId, type: 'refund', amount: heldBy(bid), bidId: bid.id, productId: bid.productId, notes }],
    products: [{ id: bid.productId, set: { version: s.version + 1, bidCount } }],
    ...(undone.length > 0 ? { autoBidsRolledBack: undone } : {}),
    ...(back !== auction.validUntil ? { auctions: [{ id: auction.id, set: { validUntil: back } }] } : {}),
  };
  if (found && next) {
    // It leads again holding its whole maximum (docs/bidding.md#cancelling-a-bid).
    changes.bids!.push({ id: next.bidId, status: 'success', amount: next.amount, maxAmount: next.maxAmount, held: found.held });
    changes.moves!.push({
      userId: next.userId, type: 'bid', amount: found.held, bidId: next.bidId, productId: bid.productId,
      notes: (reason === 'CANCELLED'
        ? `Bid on ${productName} reinstated: a higher bid was cancelled`
        : `Bid on ${productName} reinstated: the higher bidder's account was closed`)
        + (found.lowered ? `; maximum lowered to ${formatRupees(toRupees(next.maxAmount!))}, what your wallet holds` : ''),
    });
    changes.notices = [reinstatedNotice(next.userId, { auctionId: bid.auctionId, productId: bid.productId, productName }, next.amount, reason, now)];
  }
  const highest = next?.amount ?? 0;
  const minNext = minNextBid({ steps: stepsOf(auction), startingPrice: lot.startingPrice, highest, hasBid: next !== null });
  const events = (applied: Applied): DomainEvent[] => [
    {
      type: 'bid:rolledback', auctionId: bid.auctionId, ownerId: auction.createdBy, productId: bid.productId, highest, bidCount, version: s.version + 1,
      minNext, reserveMet: lot.reservePrice === null ? null : next !== null && highest >= lot.reservePrice, buyNowAvailable: buyNowAvailable(lot, next?.amount ?? null),
    },
    ...(back !== auction.validUntil ? [{ type: 'auction:extended' as const, auctionId: auction.id, ownerId: auction.createdBy, validUntil: back, originalValidUntil: auction.originalValidUntil }] : []),
    ...(next ? [{ type: 'bid:reinstated' as const, userId: next.userId, auctionId: bid.auctionId, productId: bid.productId, amount: next.amount }] : []),
    ...walletEvents(applied),
    ...noticeEvents(applied),
  ];
  return { changes, events, next, held: found?.held ?? 0 };
}

/**
 * Cancels the caller's leading bid: refund, then reinstate the best covered earlier bid of another
 * active, registered bidder who has not cancelled on this product in this auction (docs/money.md).
 */
export async function cancelBid(tx: UnitOfWork, cmd: { userId: number; bidId: number }, now: number): Promise<Result<CancelledBid>> {
  const seen = await tx.bidWithContext(cmd.bidId);
  if (!seen) return refuse('NOT_FOUND', 'Bid not found');
  if (seen.bid.userId !== cmd.userId) return refuse('FORBIDDEN', 'You can only cancel your own bids');
  // Lock the product, then read the bid again: it may have been outbid or released meanwhile.
  const locked = await tx.lockProduct(seen.bid.productId);
  const current = await tx.bidWithContext(cmd.bidId);
  if (!current) return refuse('NOT_FOUND', 'Bid not found');
  const active = current.bid.status === 'success';
  const candidates = active ? await tx.reinstatementCandidates(current.bid) : [];
  const wallets = await tx.lockWallets([cmd.userId, ...candidates.map((c) => c.userId)]);
  // Counted once the canceller's wallet is locked: their cancels (on any lot) run one at a time, each counting the others.
  const cancels = active ? await tx.cancelsBy(cmd.userId, current.bid.auctionId, current.bid.productId) : { auction: 0, lot: 0 };
  const autoRaises = active ? await tx.autoRaisesOf([current.bid.id, ...candidates.map((c) => c.bidId)]) : [];
  const bidCount = active ? await tx.lotBidCount(current.bid.productId, current.bid.auctionId) : 0;
  // A deleted lot holds no leading bid (deleting refunded it): the decision refuses before using it.
  const lot = locked?.product ?? { startingPrice: 0, reservePrice: null, buyNowPrice: null, status: 'available' as const, bidCount: 0, version: 0, gstPct: 0 };
  const decision = decideCancel({ ...current, lot, bidCount, version: lot.version, candidates, autoRaises, wallets }, cmd.userId, now, cancels);
  if (!decision.ok) return decision;
  const applied = await tx.apply(decision.changes, now);
  return { ok: true, balance: applied.balances.get(cmd.userId)!, highest: decision.next?.amount ?? 0, reinstated: decision.next, events: decision.events(applied) };
}

/**
 * Releases every leading hold of a bidder whose account is being deactivated (docs/money.md), so the
 * account never wins: each hold is refunded with a note, and on each lot the best covered earlier bid
 * of another active, registered bidder leads again, also in auctions that have ended but are not
 * settled. Locks: the lots (ascending ids), then every wallet that may move (ascending ids); once the
 * bidder's wallet is locked no new bid of theirs can commit, and leads that appeared meanwhile are
 * released too. Run in the same transaction as the status change.
 */
export async function releaseLeadsOf(tx: UnitOfWork, userId: number, now: number): Promise<{ changes: ChangeSet; events: (applied: Applied) => DomainEvent[] }> {
  const before = await tx.leadingBidsOf(userId);
  const lots = new Map((await tx.lockProducts(before.map((b) => b.productId))).map((p) => [p.id, p]));
  const candidatesOf = new Map<string, Hold[]>();
  for (const b of before) candidatesOf.set(b.productId, await tx.reinstatementCandidates(b));
  const wallets = await tx.lockWallets([userId, ...[...candidatesOf.values()].flat().map((c) => c.userId)]);
  const leads = await tx.leadingBidsOf(userId);
  const decided: { changes: ChangeSet; events: (applied: Applied) => DomainEvent[] }[] = [];
  for (const bid of leads) {
    // A lead taken after the first read (rare): lock its lot now (PostgreSQL retries if that deadlocks).
    const lot = lots.get(bid.productId) ?? (await tx.lockProducts([bid.productId]))[0];
    const auction = await tx.auction(bid.auctionId);
    if (!lot || !auction) continue;
    const candidates = candidatesOf.get(bid.productId) ?? await tx.reinstatementCandidates(bid);
    for (const c of candidates) if (!wallets.has(c.userId)) for (const [id, w] of await tx.lockWallets([c.userId])) wallets.set(id, w);
    const autoRaises = await tx.autoRaisesOf([bid.id, ...candidates.map((c) => c.bidId)]);
    const bidCount = await tx.lotBidCount(bid.productId, bid.auctionId);
    const release = decideRelease(
      { bid, productName: lot.name, lot, auction, bidCount, version: lot.version, candidates, autoRaises, wallets },
      'ACCOUNT_INACTIVE', `Bid on ${lot.name} released: the account was deactivated`, now,
    );
    // The next leader's hold is taken now: a later lot sees their balance without it.
    if (release.next) {
      const w = wallets.get(release.next.userId)!;
      wallets.set(w.id, { ...w, balance: w.balance - release.held });
    }
    decided.push(release);
  }
  // One change set: every lot's release in turn (each leader steps down before the next one leads).
  const changes: ChangeSet = {
    bids: decided.flatMap((d) => d.changes.bids ?? []),
    moves: decided.flatMap((d) => d.changes.moves ?? []),
    products: decided.flatMap((d) => d.changes.products ?? []),
    autoBidsRolledBack: decided.flatMap((d) => d.changes.autoBidsRolledBack ?? []),
    notices: decided.flatMap((d) => d.changes.notices ?? []),
  };
  return {
    changes,
    // Each lot's own events, then one wallet:updated per wallet that moved and one notification:new per notice.
    events: (applied) => [...decided.flatMap((d) => d.events({ ...applied, balances: new Map(), notices: [] })), ...walletEvents(applied), ...noticeEvents(applied)],
  };
}
