/**
 * Who leads a lot once its leading bid is gone (cancelled, or its bidder deactivated), and at what
 * price: the lot as it would stand had that bid never been placed (docs/bidding.md#cancelling-a-bid).
 * A pure function of the bids that remain and what their bidders' wallets can hold now.
 */
import { incrementStep, minNextBid, type AllInTerms, type Steps } from '@auction/shared';
import type { Hold } from '../db/index.js';
import { holdFor, topWithin } from './holds.js';

export interface LotTerms {
  steps: Steps;
  /** Paise. */
  startingPrice: number;
  reservePrice: number | null;
  /** What a lead holds is the all-in price of its top on these terms (docs/money.md#all-in-prices). */
  allIn: AllInTerms;
}

/** The bid that leads again: its new price (`amount`) and the maximum it holds (null for a plain bid). */
export interface NextLeader {
  hold: Hold;
  /** Paise: what it holds from its bidder's wallet (the all-in price of its maximum, or of its price for a plain bid). */
  held: number;
  /** Whether its maximum was lowered to what its bidder's wallet can hold now. */
  lowered: boolean;
}

/**
 * A maximum leading at `price` with top `top` rises to the reserve when its top reaches it (as eBay
 * does): a maximum at or above the reserve never loses the lot to it; one below it stays where it is.
 */
export function meetReserve(price: number, top: number, reserve: number | null): number {
  return reserve !== null && price < reserve && top >= reserve ? reserve : price;
}

/**
 * The best remaining bid, priced by the rules of maximum bids against the others that remain.
 *
 * - Each candidate stands at its top: a plain bid at its amount (skipped unless its bidder can hold
 *   all of it, all in), a maximum at its maximum, lowered to the highest top its bidder can hold now (skipped when that
 *   is below the lot's opening price).
 * - A bidder's best bid stands for them; the others of theirs are not competition (nobody bids
 *   against themselves).
 * - The highest top leads (equal tops: the earliest bid). A plain bid leads at its amount; a maximum
 *   at min(its top, max(opening price, runner-up's top + one step)), lifted to the reserve when its
 *   top reaches it.
 *
 * `candidates` are the bids that may lead (see UnitOfWork.reinstatementCandidates); `balance` is each
 * bidder's wallet balance now (what they can hold).
 */
export function nextLeader(candidates: readonly Hold[], balance: (userId: number) => number, lot: LotTerms): NextLeader | null {
  const opening = minNextBid({ steps: lot.steps, startingPrice: lot.startingPrice, highest: 0, hasBid: false });
  const best = new Map<number, { c: Hold; top: number; plain: boolean }>();
  for (const c of candidates) {
    const can = balance(c.userId);
    const plain = c.maxAmount === null;
    const top = plain ? c.amount : Math.min(c.maxAmount!, topWithin(can, lot.allIn));
    if (plain ? can < holdFor(top, lot.allIn) : top < opening) continue;
    const seen = best.get(c.userId);
    if (!seen || top > seen.top || (top === seen.top && c.bidId < seen.c.bidId)) best.set(c.userId, { c, top, plain });
  }
  const ranked = [...best.values()].sort((x, y) => y.top - x.top || x.c.bidId - y.c.bidId);
  const first = ranked[0];
  if (!first) return null;
  const runner = ranked[1];
  const price = first.plain ? first.top : meetReserve(
    Math.min(first.top, Math.max(opening, runner ? runner.top + incrementStep(lot.steps, runner.top) : opening)),
    first.top, lot.reservePrice,
  );
  const maxAmount = first.plain ? null : first.top;
  const held = holdFor(maxAmount ?? price, lot.allIn);
  return {
    hold: { bidId: first.c.bidId, userId: first.c.userId, amount: price, maxAmount, held },
    held,
    lowered: !first.plain && first.top < first.c.maxAmount!,
  };
}
