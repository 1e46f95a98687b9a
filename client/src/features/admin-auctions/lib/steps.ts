/**
 * The auction form's bid steps and cancel policy (docs/bidding.md#increments): the draft as typed, and
 * the body fields it sends, checked with the server's own rules (`tiersProblem` in shared/src/bidding-rules.ts).
 */
import {
  FLAT_STEP, STEP_MAX, formatRupees, hasAtMostTwoDecimals, tiersProblem, toPaise, toRupees, type AdminAuction, type CancelPolicy, type CreateAuctionBody, type IncrementRule,
} from '@auction/shared';

/** A custom tier as typed (rupees). */
export interface TierDraft {
  below: string;
  step: string;
}

/** The bid steps and cancel policy as typed in the form (StepFields). */
export interface StepsDraft {
  incrementRule: IncrementRule;
  /** The flat step in rupees, as typed. */
  incrementAmount: string;
  /** Custom tiers as typed; the last row's `below` is not used (it covers every higher price). */
  tiers: TierDraft[];
  cancelPolicy: CancelPolicy;
}

/** A new auction's tiers to start from: ₹10 below ₹1,000, then ₹50. */
const STARTER_TIERS: TierDraft[] = [{ below: '1000', step: '10' }, { below: '', step: '50' }];

/** The draft for a new auction (flat ₹1, until the end) or an auction being edited. */
export function stepsDraft(a: Pick<AdminAuction, 'increment_rule' | 'increment_amount' | 'increment_tiers' | 'cancel_policy'> | null): StepsDraft {
  return {
    incrementRule: a?.increment_rule ?? 'flat',
    incrementAmount: String(a?.increment_amount ?? toRupees(FLAT_STEP)),
    tiers: a && a.increment_tiers.length > 0 ? a.increment_tiers.map((t) => ({ below: t.below === null ? '' : String(t.below), step: String(t.step) })) : STARTER_TIERS,
    cancelPolicy: a?.cancel_policy ?? 'until_end',
  };
}

export type StepsBody = Pick<CreateAuctionBody, 'increment_rule' | 'increment_amount' | 'increment_tiers' | 'cancel_policy'>;

const rupees = (text: string): number | null => {
  const t = text.trim().replace(/,/g, '');
  const n = Number(t);
  return t !== '' && Number.isFinite(n) && n > 0 && hasAtMostTwoDecimals(n) ? n : null;
};

const STEP_RANGE = `from ₹1 to ${formatRupees(toRupees(STEP_MAX))}`;

/** The body fields for the steps (only those the rule uses) and the cancel policy, or what is wrong. */
export function checkSteps(d: StepsDraft): { ok: true; body: StepsBody } | { ok: false; error: string } {
  const base = { increment_rule: d.incrementRule, cancel_policy: d.cancelPolicy };
  if (d.incrementRule === 'ladder') return { ok: true, body: base };
  if (d.incrementRule === 'flat') {
    const amount = rupees(d.incrementAmount === '' ? '1' : d.incrementAmount);
    if (amount === null || toPaise(amount) < FLAT_STEP || toPaise(amount) > STEP_MAX) return { ok: false, error: `The step must be an amount ${STEP_RANGE}, with at most 2 decimals` };
    return { ok: true, body: { ...base, increment_amount: amount } };
  }
  const tiers: { below?: number; step: number }[] = [];
  for (const [i, t] of d.tiers.entries()) {
    const step = rupees(t.step);
    if (step === null) return { ok: false, error: `Band ${i + 1}: the step must be an amount ${STEP_RANGE}` };
    if (i === d.tiers.length - 1) {
      tiers.push({ step });
      continue;
    }
    const below = rupees(t.below);
    if (below === null) return { ok: false, error: `Band ${i + 1}: enter the price it goes up to` };
    tiers.push({ below, step });
  }
  const problem = tiersProblem(tiers.map((t) => ({ below: t.below === undefined ? null : toPaise(t.below), step: toPaise(t.step) })));
  if (problem) return { ok: false, error: `Custom steps: ${problem.replace(/^increment_tiers:? /, '').replace(/\btier\b/g, 'band')}` };
  return { ok: true, body: { ...base, increment_tiers: tiers } };
}
