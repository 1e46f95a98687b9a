/** The browse page's pure rules: search and filter, the bid checks and amounts, when bidding is open, a lot's state lines. */
import {
  BID_MESSAGES, ENDING_SOON_SECONDS, LIMITS, auctionSteps, stepsInWords, bidTooLowFor, formatRupees, hasAtMostTwoDecimals, nextBids, toPaise, toRupees,
  type Auction, type LotPricing, type Product,
} from '@auction/shared';
import { formatDuration } from '../format';
import type { BidAsk } from './catalogue-api';

/** Browse's views (docs/bidding.md#what-you-see): open auctions, those ending within a day, and ended ones apart. */
export const BROWSE_VIEWS = ['active', 'ending', 'ended'] as const;
export type BrowseView = (typeof BROWSE_VIEWS)[number];

/**
 * The auctions of one Browse view at `now` (ms): Active and Ending soon sorted by ending soonest (then by
 * name), Ended by the most recently ended first. Ending soon = open and ending within ENDING_SOON_SECONDS.
 */
export function browseView(auctions: readonly Auction[], view: BrowseView, now: number): Auction[] {
  const left = (a: Auction) => Date.parse(a.valid_until) - now;
  const over = (a: Auction) => isEnded(a, Math.ceil(left(a) / 1000));
  const soonest = (x: Auction, y: Auction) => left(x) - left(y) || x.name.localeCompare(y.name);
  if (view === 'ended') return auctions.filter(over).sort((x, y) => left(y) - left(x) || x.name.localeCompare(y.name));
  const open = auctions.filter((a) => !over(a));
  return (view === 'ending' ? open.filter((a) => left(a) < ENDING_SOON_SECONDS * 1000) : open).sort(soonest);
}

/** Search: name or id, case-insensitive, contains; `registeredOnly` is the `?registered=1` flag. */
export function filterAuctions(auctions: readonly Auction[], query: string, registeredOnly: boolean): Auction[] {
  const q = query.trim().toLowerCase();
  return auctions.filter((a) =>
    (!registeredOnly || a.registered) && (q === '' || a.name.toLowerCase().includes(q) || a.id.toLowerCase().includes(q)));
}

/** The fields of a lot the bid rules read. */
export type LotForBid = Pick<Product, 'highest_bid' | 'starting_price' | 'my_status' | 'my_max'>;

/** The fields of an auction that say its steps (fields an older server leaves out mean ₹1 steps). */
export type StepFields = Parameters<typeof auctionSteps>[0];

/** A lot's pricing for the shared rules (bidding-rules.ts), in paise: it has a bid once its highest is above 0. */
export function lotPricing(product: Pick<Product, 'highest_bid' | 'starting_price'>, auction: StepFields): LotPricing {
  return { steps: auctionSteps(auction), startingPrice: toPaise(product.starting_price), highest: toPaise(product.highest_bid), hasBid: product.highest_bid > 0 };
}

/** The dialog's one-tap amounts: the next `count` acceptable bids, one step apart as the auction's steps go (rupees). */
export function quickBids(product: Pick<Product, 'highest_bid' | 'starting_price'>, auction: StepFields, count = 3): number[] {
  return nextBids(lotPricing(product, auction), count).map(toRupees);
}

export const MAX_MESSAGES = {
  invalid: 'Please enter a valid maximum bid',
  belowBid: 'Your maximum bid must be at least your bid',
} as const;

export interface BidForm {
  /** The bid field's text (may be empty when a maximum is given). */
  amount: string;
  /** The optional maximum bid field's text. */
  max: string;
}

export type BidCheck = { ok: true; ask: BidAsk } | { ok: false; field: 'amount' | 'max'; error: string };

/** A valid amount in rupees (above 0, at most 2 decimals, within the bid limit), or null. */
function readAmount(text: string): number | null {
  const amount = Number(text);
  return Number.isFinite(amount) && amount > 0 && hasAtMostTwoDecimals(amount) && amount <= LIMITS.bidMaxRupees ? amount : null;
}

/**
 * The bid rules, worded as the server words them (its decision uses the same shared `bidTooLowFor`):
 * a bid, a maximum, or both (the bid at most the maximum). The leader raising their own maximum sends
 * the maximum alone, which must be above the current one.
 */
export function checkBid(form: BidForm, lot: LotForBid, auction: StepFields): BidCheck {
  const amountText = form.amount.trim();
  const maxText = form.max.trim();
  if (amountText === '' && maxText === '') return { ok: false, field: 'amount', error: BID_MESSAGES.invalid };
  const amount = amountText === '' ? null : readAmount(amountText);
  if (amountText !== '' && amount === null) return { ok: false, field: 'amount', error: BID_MESSAGES.invalid };
  const max = maxText === '' ? null : readAmount(maxText);
  if (maxText !== '' && max === null) return { ok: false, field: 'max', error: MAX_MESSAGES.invalid };

  const leading = lot.my_status === 'leading';
  if (leading && max !== null) {
    const current = lot.my_max ?? lot.highest_bid;
    if (toPaise(max) <= toPaise(current)) {
      return { ok: false, field: 'max', error: `Your new maximum must be more than your current maximum of ${formatRupees(current)}` };
    }
    return { ok: true, ask: { max } };
  }

  const first = amount ?? max!;
  const tooLow = bidTooLowFor(toPaise(first), lotPricing(lot, auction));
  if (tooLow) return { ok: false, field: amount === null ? 'max' : 'amount', error: tooLow };
  if (leading && lot.my_max !== null && toPaise(first) <= toPaise(lot.my_max)) {
    return { ok: false, field: 'amount', error: `Your maximum bid of ${formatRupees(lot.my_max)} already covers this amount` };
  }
  if (amount !== null && max !== null && toPaise(amount) > toPaise(max)) return { ok: false, field: 'max', error: MAX_MESSAGES.belowBid };
  return { ok: true, ask: { ...(amount === null ? {} : { amount }), ...(max === null ? {} : { max }) } };
}

/**
 * Soft close in words: "Bids in the last 2 min extend the auction (by up to 1 h in all)"; null when
 * soft close is off (no window, or no extension allowed).
 */
export function softCloseText(auction: Pick<Auction, 'soft_close_s' | 'max_extension_s'>): string | null {
  if (auction.soft_close_s <= 0 || auction.max_extension_s <= 0) return null;
  return `Bids in the last ${formatDuration(auction.soft_close_s)} extend the auction (by up to ${formatDuration(auction.max_extension_s)} in all)`;
}

/** The auction's steps in words: "Bids go up in ₹50 steps", or its tiers spelled out. */
export function stepsText(auction: StepFields): string {
  const steps = auctionSteps(auction);
  const words = stepsInWords(steps);
  return words.endsWith(' steps') && !words.includes(',') ? `Bids go up in ${words}` : `Bids go up in steps of ${words}`;
}

/** An auction is over once the server says so or the clock reaches its end. */
export function isEnded(auction: Pick<Auction, 'status'>, secondsLeft: number): boolean {
  return auction.status !== 'active' || secondsLeft <= 0;
}

export interface BidAction {
  label: 'Place Bid' | 'Register to bid';
  disabled: boolean;
  /** Why the button is disabled, for its tooltip and screen readers. */
  reason?: string;
}

/** Place Bid is disabled once sold or ended; an unregistered user sees Register to bid. */
export function bidAction(product: Pick<Product, 'status'>, registered: boolean, ended: boolean): BidAction {
  const label = registered ? 'Place Bid' : 'Register to bid';
  if (product.status === 'sold') return { label, disabled: true, reason: 'This product has been sold' };
  if (ended) return { label, disabled: true, reason: 'This auction has ended' };
  return { label, disabled: false };
}

export type StandingTone = 'leading' | 'outbid' | 'won' | 'lost';

/**
 * The caller's own state on a lot, in words, or null when they have not bid on it. Outbid on a lot
 * that is over (ended, or sold to someone else) reads as lost, as the server will say on the next read.
 */
export function standingOf(product: Pick<Product, 'status' | 'my_status' | 'my_max'>, ended: boolean): { tone: StandingTone; text: string } | null {
  switch (product.my_status) {
    case 'leading':
      return { tone: 'leading', text: `You're the highest bidder${product.my_max === null ? '' : ` · your maximum ${formatRupees(product.my_max)}`}` };
    case 'outbid':
      return ended || product.status === 'sold' ? { tone: 'lost', text: "You didn't win" } : { tone: 'outbid', text: 'Outbid — bid again' };
    case 'won':
      return { tone: 'won', text: 'You won' };
    case 'lost':
      return { tone: 'lost', text: "You didn't win" };
    default:
      return null;
  }
}

/** The reserve's state, for lots that have one and are not sold: not met once it is over; "not met yet" or met while open. */
export function reserveNote(product: Pick<Product, 'status' | 'reserve_met'>, ended: boolean): { met: boolean; text: string } | null {
  if (product.reserve_met === null || product.status === 'sold') return null;
  if (product.reserve_met) return { met: true, text: 'Reserve met' };
  return { met: false, text: ended ? 'Reserve not met' : 'Reserve not met yet' };
}
