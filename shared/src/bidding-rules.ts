/**
 * How far the next bid must go (docs/bidding.md): the increment rules and the lowest acceptable bid,
 * in integer paise, shared by the server's decision and the bid dialog so they always agree.
 */
import { formatRupees, toRupees } from './money.js';
import type { CANCEL_POLICIES, INCREMENT_RULES } from './schemas/enums.js';

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
/** The `flat` rule's default step: ₹1, the spec's minimum increment. */
export const FLAT_STEP = 1_00;
/** The largest step a seller may choose (flat amount or a custom tier), in paise: ₹1,00,000. */
export const STEP_MAX = 1_00_000_00;
/** At most this many custom tiers. */
export const TIERS_MAX = 20;

/** A custom tier in paise: while the highest bid is below `below` the step is `step`; the last tier has no `below` (null). */
export interface StepTier {
  below: number | null;
  step: number;
}

/**
 * An auction's steps as its seller chose them (docs/bidding.md#increments), in paise: the rule, the
 * flat step (used by `flat`) and the tiers (used by `custom`, ascending, the last without `below`).
 */
export interface Steps {
  rule: IncrementRule;
  amount: number;
  tiers: readonly StepTier[];
}

/** The spec's rule: ₹1 steps. */
export const FLAT_STEPS: Steps = { rule: 'flat', amount: FLAT_STEP, tiers: [] };

/** The step above a highest bid of `highest` paise. */
export function incrementStep(steps: Steps, highest: number): number {
  if (steps.rule === 'flat') return steps.amount;
  if (steps.rule === 'custom') return steps.tiers.find((t) => t.below === null || highest < t.below)?.step ?? FLAT_STEP;
  return LADDER.find((r) => highest < r.below)?.step ?? LADDER_TOP_STEP;
}

/**
 * What is wrong with custom tiers (paise), in words naming the field; null when they are well formed:
 * 1 to TIERS_MAX tiers, each step ₹1 to ₹1,00,000, `below` rising from tier to tier, only the last
 * tier without `below`.
 */
export function tiersProblem(tiers: readonly { below?: number | null; step: number }[]): string | null {
  if (tiers.length === 0) return 'increment_tiers needs at least one tier for custom steps';
  if (tiers.length > TIERS_MAX) return `increment_tiers may have at most ${TIERS_MAX} tiers`;
  const rupees = (paise: number) => formatRupees(toRupees(paise));
  for (const [i, t] of tiers.entries()) {
    const n = i + 1;
    const last = i === tiers.length - 1;
    if (t.step < FLAT_STEP || t.step > STEP_MAX) return `increment_tiers: the step of tier ${n} must be from ₹1 to ${rupees(STEP_MAX)}`;
    const below = t.below ?? null;
    if (last && below !== null) return 'increment_tiers: the last tier must have no "below" amount, so that it covers every higher price';
    if (last) break;
    if (below === null) return `increment_tiers: tier ${n} needs a "below" amount (only the last tier goes without one)`;
    if (below <= 0) return `increment_tiers: the "below" amount of tier ${n} must be more than ₹0`;
    const before = i > 0 ? tiers[i - 1]!.below ?? 0 : 0;
    if (i > 0 && below <= before) return `increment_tiers: "below" amounts must go up from tier to tier, but tier ${n} (${rupees(below)}) is not above tier ${i} (${rupees(before)})`;
  }
  return null;
}

/** The steps in words for bidders and sellers: "₹50 steps", or the ladder or tiers spelled out. */
export function stepsInWords(steps: Steps): string {
  const r = (paise: number) => formatRupees(toRupees(paise));
  if (steps.rule === 'flat') return `${r(steps.amount)} steps`;
  const tiers = steps.rule === 'ladder' ? [...LADDER, { below: null, step: LADDER_TOP_STEP }] : steps.tiers;
  return tiers.map((t, i) => (t.below === null ? `${i === 0 ? '' : 'then '}${r(t.step)}${i === 0 ? ' steps' : ''}` : `${r(t.step)} below ${r(t.below)}`)).join(', ');
}

export interface LotPricing {
  /** The auction's steps. */
  steps: Steps;
  /** Paise. */
  startingPrice: number;
  /** Paise; meaningful only with `hasBid`. */
  highest: number;
  /** Whether the lot has a leading bid. */
  hasBid: boolean;
}

/** The lowest acceptable next bid, in paise: the starting price (at least ₹1) first, then one step above the highest. */
export function minNextBid(p: LotPricing): number {
  return p.hasBid ? p.highest + incrementStep(p.steps, p.highest) : Math.max(p.startingPrice, FLAT_STEP);
}

/** The next `count` acceptable amounts (paise) from the minimum, one step apart as the rule goes: the dialog's one-tap amounts. */
export function nextBids(p: LotPricing, count: number): number[] {
  const out: number[] = [];
  let next = minNextBid(p);
  for (let i = 0; i < count; i++) {
    out.push(next);
    next += incrementStep(p.steps, next);
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

/** The `strict` cancel policy in the bidder's words (docs/bidding.md#cancelling-a-bid). */
export const STRICT_CANCEL_WORDS = 'In this auction a bid can be cancelled only within 10 minutes of placing it, and never in the auction’s last hour.';

/** Whether bidders may cancel a leading bid until the end, or only under the strict rule. */
export type CancelPolicy = (typeof CANCEL_POLICIES)[number];
