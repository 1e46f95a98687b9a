/** An auction's bid steps between the stored columns and the shared rules' `Steps` (docs/bidding.md). */
import type { StepTier, Steps } from '@auction/shared';
import type { IncrementRule } from '../db/index.js';

/** An auction's steps (paise) from its stored columns: what `incrementStep` and `minNextBid` take. */
export function stepsOf(a: { incrementRule: IncrementRule; incrementAmount: number; incrementTiers: string | null }): Steps {
  return { rule: a.incrementRule, amount: Number(a.incrementAmount), tiers: a.incrementTiers === null ? [] : (JSON.parse(a.incrementTiers) as StepTier[]) };
}

/** Custom tiers as stored (JSON), or null when there are none. */
export const storedTiers = (tiers: readonly StepTier[] | undefined): string | null | undefined =>
  tiers === undefined ? undefined : tiers.length === 0 ? null : JSON.stringify(tiers.map((t) => ({ below: t.below, step: t.step })));
