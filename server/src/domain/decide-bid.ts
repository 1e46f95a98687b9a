/**
 * The money rules of one bid as a pure function (docs/money.md, docs/bidding.md): given the few rows
 * that matter, refuse with a code and the words the bidder reads, or accept with the change set that
 * makes it so (the old leader's hold released first, then the new bid and its hold) and the events it
 * causes. Plain and maximum (proxy) bids, the lot's starting price and increment rule, its reserve,
 * and soft close are all decided here.
 */
import { bidTooLowFor, formatRupees, incrementStep, minNextBid, toRupees, type LotPricing } from '@auction/shared';
import type { Applied, AuctionRow, ChangeSet, Hold, ProductRow, Wallet } from '../db/index.js';
import { heldBy, holdFor, termsOf, topOf } from './holds.js';
import { stepsOf } from './steps.js';
import { refuse, type Refusal, type Result } from '../errors.js';
import type { DomainEvent } from './events.js';
import { walletEvents } from './wallets.js';
import { noticeEvents, outbidNotice } from './notices.js';
import { meetReserve } from './reprice.js';

export interface BidState {
  bidder: Wallet;
  registered: boolean;
  product: Pick<ProductRow, 'id' | 'name' | 'status' | 'bidCount' | 'version' | 'startingPrice' | 'reservePrice' | 'buyNowPrice' | 'gstPct'>;
  auction: Pick<AuctionRow, 'id' | 'name' | 'validUntil' | 'originalValidUntil' | 'settledAt' | 'createdBy' | 'incrementRule' | 'incrementAmount' | 'incrementTiers' | 'softCloseS' | 'maxExtensionS' | 'buyerPremiumBp' | 'premiumGstPct'>;
  leader: (Hold & { username: string }) | null;
  /** When the bidder leads: the best top among the other bids that may still lead (UnitOfWork.runnerUpTop). */
  runnerUp?: number | null;
}

/** What the bidder asked: a plain bid (`amount`), a maximum (`max`), or both (`amount` ≤ `max`). Paise. */
export interface BidAsk {
  amount: number | null;
  max: number | null;
}

export interface AcceptedBid {
  changes: ChangeSet;
  /** The events, once the store has assigned the new bid its id and moved the wallets. */
  events: (applied: Applied) => DomainEvent[];
  /** Paise: the lot's visible highest bid after this bid. */
  highest: number;
  /** Whether the bidder leads now (false: an automatic bid of the leader answered at once). */
  leading: boolean;
  /** Paise: the bidder's maximum while leading by proxy, else null. */
  max: number | null;
  /** Paise: the lowest acceptable next bid after this one. */
  minNext: number;
  /** Paise: what a win at `minNext` costs in all (docs/money.md#all-in-prices). */
  minNextAllIn: number;
  /** The bid the caller's answer shows, when it is not the new bid (a raise of one's own maximum). */
  shown: { bidId: number; amount: number } | null;
}

export const pricingOf = (s: Pick<BidState, 'product' | 'auction'>, leader: Pick<Hold, 'amount'> | null): LotPricing => ({
  steps: stepsOf(s.auction), startingPrice: s.product.startingPrice, highest: leader?.amount ?? 0, hasBid: leader !== null,
});


/** The end after a bid that took the lead at `now`: moved by soft close, or unchanged. */
export function softCloseEnd(a: BidState['auction'], now: number): number {
  const window = a.softCloseS * 1000;
  if (window === 0 || a.validUntil - now >= window) return a.validUntil;
  const cap = a.originalValidUntil + a.maxExtensionS * 1000;
  return Math.max(a.validUntil, Math.min(now + window, cap));
}

const gate = (s: BidState, now: number): Refusal | null => {
  if (s.bidder.status !== 'active') return refuse('ACCOUNT_INACTIVE', 'This account has been deactivated');
  if (s.product.status === 'sold') return refuse('PRODUCT_SOLD', 'This product has already been sold');
  if (s.auction.settledAt !== null) return refuse('AUCTION_SETTLED', 'This auction has been settled');
  if (now >= s.auction.validUntil) return refuse('AUCTION_ENDED', 'This auction has ended');
  if (!s.registered) return refuse('NOT_REGISTERED', 'Register for this auction before bidding');
  return null;
};

/** A leader's refused change to their own maximum: not a bid, so not recorded as a failed one. */
const notABid = (refusal: Refusal): Refusal => ({ ...refusal, recorded: false });

/** The hold's words in the ledger: the all-in amount named when it is more than the bid. */
const inAll = (held: number, top: number) => (held === top ? '' : `; ${formatRupees(toRupees(held))} held in all (premium and GST)`);

const short = (available: number) => refuse('INSUFFICIENT_FUNDS', `Insufficient wallet balance: ${formatRupees(toRupees(available))} available for this bid`);

export function decideBid(s: BidState, ask: BidAsk, now: number): Result<AcceptedBid> {
  const closed = gate(s, now);
  if (closed) return closed;
  const { product, auction, bidder, leader } = s;
  const pricing = pricingOf(s, leader);
  const minNext = minNextBid(pricing);
  const reserve = product.reservePrice;
  const self = leader?.userId === bidder.id;
  const top = ask.max ?? ask.amount!;
  // A lead holds the all-in price of its top, so that a win is payable at the hammer (docs/money.md#all-in-prices).
  const terms = termsOf(auction, product);
  const allInOf = (price: number) => holdFor(price, terms);

  // The leader raising their own maximum: the difference is held; the price does not move. A plain bid
  // above the maximum of a leader who holds one raises that maximum to it (nobody bids against themselves).
  const newMax = !self ? null : ask.max ?? (leader.maxAmount !== null && ask.amount! > leader.maxAmount ? ask.amount : null);
  if (self && newMax !== null) {
    const current = topOf(leader);
    if (newMax <= current) return notABid(refuse('BID_TOO_LOW', `Your new maximum must be more than your current maximum of ${formatRupees(toRupees(current))}`));
    const held = allInOf(newMax);
    const extra = held - heldBy(leader);
    if (bidder.balance < extra) return notABid(short(bidder.balance + heldBy(leader)));
    // A price held at the old maximum (less than one step above the runner-up) gets the step it lacked,
    // as far as the new maximum goes: the price is what the rule gives against the runner-up, so a
    // cancel later prices it the same way (docs/bidding.md#maximum-bids).
    const runner = s.runnerUp ?? null;
    const stepped = runner === null ? leader.amount : Math.max(leader.amount, Math.min(newMax, runner + incrementStep(pricing.steps, runner)));
    const price = meetReserve(stepped, newMax, reserve);
    const raised = price !== leader.amount;
    // An automatic raise (to the reserve) is a bid of the lot's count; a raise of the maximum alone is not.
    const bidCount = product.bidCount + (raised ? 1 : 0);
    const changes: ChangeSet = {
      bids: [{ id: leader.bidId, status: 'success', maxAmount: newMax, held, ...(raised ? { amount: price } : {}) }],
      moves: [{ userId: bidder.id, type: 'bid', amount: extra, bidId: leader.bidId, productId: product.id, notes: `Maximum bid on ${product.name} raised to ${formatRupees(toRupees(newMax))}${inAll(held, newMax)}` }],
      products: [{ id: product.id, set: { version: product.version + 1, ...(raised ? { bidCount } : {}) } }],
      ...(raised ? { autoBids: [{ bidId: leader.bidId, productId: product.id, amount: price }] } : {}),
    };
    const after = minNextBid({ ...pricing, highest: price });
    const events = (applied: Applied): DomainEvent[] => [
      ...(raised ? [placed(s, { bidId: leader.bidId, bidderId: bidder.id, bidder: bidder.username, price, auto: true, bidCount, minNext: after, at: now })] : []),
      ...walletEvents(applied),
    ];
    return { ok: true, changes, events, highest: price, leading: true, max: newMax, minNext: after, minNextAllIn: allInOf(after), shown: { bidId: leader.bidId, amount: price } };
  }

  // Every other bid must reach the lot's minimum (for a maximum alone, the maximum must).
  const tooLow = bidTooLowFor(ask.amount ?? ask.max!, pricing);
  if (tooLow) return refuse('BID_TOO_LOW', tooLow);
  // A plain bid from the proxy leader below its own maximum would only lower what it holds.
  if (self && leader.maxAmount !== null && top <= leader.maxAmount) {
    return notABid(refuse('BID_TOO_LOW', `Your maximum bid of ${formatRupees(toRupees(leader.maxAmount))} already covers this amount`));
  }
  // The bidder must be able to pay their whole top, all in; raising one's own lead may use what that lead holds.
  const ownHold = self ? heldBy(leader) : 0;
  const need = allInOf(top);
  if (bidder.balance + ownHold < need) return short(bidder.balance + ownHold);

  const leaderTop = leader ? topOf(leader) : 0;
  // The lot's count: every bid accepted, and every automatic raise (docs/bidding.md#the-bid-count).
  const version = product.version + 1;

  // The leader is a proxy whose top this bid does not beat: it stays, its price rises to answer.
  if (leader && !self && top <= leaderTop) {
    const price = meetReserve(Math.min(leaderTop, Math.max(leader.amount, top + incrementStep(pricing.steps, top))), leaderTop, reserve);
    const bidCount = product.bidCount + 2;
    const after = minNextBid({ ...pricing, highest: price });
    const changes: ChangeSet = {
      bids: [{ id: leader.bidId, status: 'success', amount: price }],
      newBid: { userId: bidder.id, productId: product.id, auctionId: auction.id, amount: top, maxAmount: ask.max, status: 'outbid', reason: 'OUTBID_BY_PROXY' },
      autoBids: [{ bidId: leader.bidId, productId: product.id, amount: price }],
      products: [{ id: product.id, set: { bidCount, version } }],
    };
    const events = (): DomainEvent[] => [
      placed(s, { bidId: leader.bidId, bidderId: leader.userId, bidder: leader.username, price, auto: true, bidCount, minNext: after, at: now }),
    ];
    return { ok: true, changes, events, highest: price, leading: false, max: null, minNext: after, minNextAllIn: allInOf(after), shown: null };
  }

  // The bidder leads: a plain bid at its amount, a proxy at the least that beats the old leader's top.
  const floor = ask.amount ?? minNext;
  const price = ask.max === null ? ask.amount! : meetReserve(
    Math.min(ask.max, Math.max(floor, leader ? leaderTop + incrementStep(pricing.steps, leaderTop) : floor)),
    ask.max, reserve,
  );
  const after = minNextBid({ ...pricing, highest: price, hasBid: true });
  const end = self ? auction.validUntil : softCloseEnd(auction, now);
  const extended = end !== auction.validUntil ? { extendedFrom: auction.validUntil, extendedTo: end } : {};
  // A proxy beaten here reached its top on the way (its history shows it, a reinstatement uses it).
  const reached = leader !== null && leaderTop > leader.amount && !self;
  const bidCount = product.bidCount + (reached ? 2 : 1);
  const changes: ChangeSet = {
    newBid: { userId: bidder.id, productId: product.id, auctionId: auction.id, amount: price, maxAmount: ask.max, held: need, status: 'success', reason: null, ...extended },
    moves: [],
    products: [{ id: product.id, set: { bidCount, version } }],
    ...(end !== auction.validUntil ? { auctions: [{ id: auction.id, set: { validUntil: end } }] } : {}),
  };
  if (leader) {
    // Release the old hold first, so raising one's own lead never passes through a negative balance.
    changes.bids = [{ id: leader.bidId, status: 'outbid', ...(reached ? { amount: leaderTop } : {}) }];
    if (reached) changes.autoBids = [{ bidId: leader.bidId, productId: product.id, amount: leaderTop }];
    changes.moves!.push({
      userId: leader.userId, type: 'refund', amount: heldBy(leader), bidId: leader.bidId, productId: product.id,
      notes: self ? `Hold released: you raised your bid on ${product.name}` : `Outbid on ${product.name}: hold released`,
    });
    // The bidder whose lead was taken is told (docs/notifications.md); not one raising their own lead.
    if (!self) changes.notices = [outbidNotice(leader.userId, { auctionId: auction.id, productId: product.id, productName: product.name }, price, now)];
  }
  // The hold names the lot as it was described when bid on (a sold lot cannot be edited afterwards).
  changes.moves!.push({
    userId: bidder.id, type: 'bid', amount: need, bidId: 'new', productId: product.id,
    notes: (ask.max === null ? `Bid on ${product.name}` : `Maximum bid on ${product.name}: up to ${formatRupees(toRupees(ask.max))} held`) + inAll(need, top),
  });

  const events = (applied: Applied): DomainEvent[] => [
    placed(s, { bidId: applied.newBid!.id, bidderId: bidder.id, bidder: bidder.username, price, auto: false, bidCount, minNext: after, at: now }),
    ...(end !== auction.validUntil ? [{ type: 'auction:extended' as const, auctionId: auction.id, ownerId: auction.createdBy, validUntil: end, originalValidUntil: auction.originalValidUntil }] : []),
    ...(leader && !self
      ? [{ type: 'bid:outbid' as const, userId: leader.userId, auctionId: auction.id, productId: product.id, productName: product.name, highest: price }]
      : []),
    ...walletEvents(applied),
    ...noticeEvents(applied),
  ];
  return { ok: true, changes, events, highest: price, leading: true, max: ask.max, minNext: after, minNextAllIn: allInOf(after), shown: null };
}

function placed(
  s: BidState,
  p: { bidId: number; bidderId: number; bidder: string; price: number; auto: boolean; bidCount: number; minNext: number; at: number },
): DomainEvent {
  const reserve = s.product.reservePrice;
  return {
    type: 'bid:placed', auctionId: s.auction.id, ownerId: s.auction.createdBy, productId: s.product.id, bidId: p.bidId,
    highest: p.price, bidCount: p.bidCount, version: s.product.version + 1, bidderId: p.bidderId, bidder: p.bidder, amount: p.price, at: p.at,
    minNext: p.minNext, reserveMet: reserve === null ? null : p.price >= reserve, auto: p.auto,
    buyNowAvailable: buyNowAvailable(s.product, p.price),
  };
}

/**
 * Whether a lot can still be bought at its buy-now price, given its highest bid (paise; null: none):
 * while it has no bid, or, with a reserve, while the highest bid is below the reserve.
 */
export function buyNowAvailable(p: Pick<ProductRow, 'status' | 'buyNowPrice' | 'reservePrice'>, highest: number | null): boolean {
  if (p.buyNowPrice === null || p.status === 'sold') return false;
  return highest === null || (p.reservePrice !== null && highest < p.reservePrice);
}

/** A refused bid is recorded with its reason and never debited (docs/money.md). */
export function refusedBid(s: Pick<BidState, 'bidder' | 'product' | 'auction'>, ask: BidAsk, refusal: Refusal): ChangeSet {
  return { newBid: { userId: s.bidder.id, productId: s.product.id, auctionId: s.auction.id, amount: ask.amount ?? ask.max!, maxAmount: ask.max, status: 'failed', reason: refusal.code } };
}
