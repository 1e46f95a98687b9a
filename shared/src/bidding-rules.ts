/**
 * How far the next bid must go (docs/bidding.md): the increment rules and the lowest acceptable bid,
 * in integer paise, shared by the server's decision and the bid dialog so they always agree.
 */
import { formatRupees, toRupees } from './money.js';

export const INCREMENT_RULES = ['flat', 'ladder'] as const;
export type IncrementRule = (typeof INCREMENT_RULES)[number];

/** The `ladder` rule: below `below` paise of highest bid, the step is `step` paise. */
export const LADDER: readonly { below: number; step: number }[] = [
  { below: 1_000_00, step: 10_00 },
  { below: 5_000_00, step: 50_00 },
  { below: 10_000_00, step: 100_00 },
  { below: 50_000_00, step: 250_00 },
  { below: 1_00_000_00, step: 500_00 },
];
/** The ladder's step from ₹1,00,000 up. */
export const LADDER_TOP_STEP = 1_000_00;
/** The `flat` rule's step: ₹1, the spec's minimum increment. */
export const FLAT_STEP = 1_00;

/** The step above a highest bid of `highest` paise. */
export function incrementStep(rule: IncrementRule, highest: number): number {
  if (rule === 'flat') return FLAT_STEP;
  return LADDER.find((r) => highest < r.below)?.step ?? LADDER_TOP_STEP;
}

export interface LotPricing {
  rule: IncrementRule;
  /** Paise. */
  startingPrice: number;
  /** Paise; meaningful only with `hasBid`. */
  highest: number;
  /** Whether the lot has a leading bid. */
  hasBid: boolean;
}

/** The lowest acceptable next bid, in paise: the starting price (at least ₹1) first, then one step above the highest. */
export function minNextBid(p: LotPricing): number {
  return p.hasBid ? p.highest + incrementStep(p.rule, p.highest) : Math.max(p.startingPrice, FLAT_STEP);
}

/** The next `count` acceptable amounts (paise) from the minimum, one step apart as the rule goes: the dialog's one-tap amounts. */
export function nextBids(p: LotPricing, count: number): number[] {
  const out: number[] = [];
  let next = minNextBid(p);
  for (let i = 0; i < count; i++) {
    out.push(next);
    next += incrementStep(p.rule, next);
  }
  return out;
}

/**
 * Why a bid of `amount` paise is too low for a lot, in the words the bidder reads (BID_TOO_LOW); null
 * when it is high enough. Not above the highest bid: the spec's sentence; above it (or no bid yet) but
 * below the minimum: "Bid must be at least ₹X".
 */
export function bidTooLowFor(amount: number, p: LotPricing): string | null {
  if (p.hasBid && amount <= p.highest) return `Bid must be higher than current highest bid of ${formatRupees(toRupees(p.highest))}`;
  const min = minNextBid(p);
  return amount < min ? `Bid must be at least ${formatRupees(toRupees(min))}` : null;
}
