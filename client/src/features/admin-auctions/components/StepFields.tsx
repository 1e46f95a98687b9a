import type { IncrementRule } from '@auction/shared';
import { INCREMENT_LABELS, ladderSteps } from '../lib/rules';
import type { StepsDraft, TierDraft } from '../lib/steps';

const RULE_HINTS: Record<IncrementRule, string> = {
  flat: 'Every bid must be at least this much above the highest bid, whatever the price.',
  ladder: `The step grows with the price: ${ladderSteps()}.`,
  custom: 'Choose the step for each price band. The last band covers every higher price.',
};

/** The auction form's bid steps (flat with an amount, the ladder, or custom tiers) and its cancel policy, in plain words. */
export function StepFields({ idPrefix, value, onChange, error, locked }: {
  idPrefix: string;
  value: StepsDraft;
  onChange: (next: StepsDraft) => void;
  /** What is wrong with the steps, as the form checked them. */
  error: string | undefined;
  /** A lot has bids: steps and the cancel policy are fixed (the server refuses a change). */
  locked: boolean;
}) {
  const set = (patch: Partial<StepsDraft>) => onChange({ ...value, ...patch });
  const setTier = (i: number, patch: Partial<TierDraft>) => set({ tiers: value.tiers.map((t, j) => (j === i ? { ...t, ...patch } : t)) });
  // A new band goes before the last one (which stays open-ended), starting above the band before it.
  const addTier = () => set({ tiers: [...value.tiers.slice(0, -1), { below: '', step: '' }, value.tiers[value.tiers.length - 1] ?? { below: '', step: '' }] });
  const removeTier = (i: number) => set({ tiers: value.tiers.filter((_, j) => j !== i) });
  const errorId = `${idPrefix}-steps-error`;
  const last = value.tiers.length - 1;
  return (
    <>
      <div className="field">
        <label className="field-label" htmlFor={`${idPrefix}-rule`}>Increment rule</label>
        <select
          id={`${idPrefix}-rule`}
          className="input aa-select"
          value={value.incrementRule}
          disabled={locked}
          aria-describedby={`${idPrefix}-rule-hint`}
          onChange={(e) => set({ incrementRule: e.target.value as IncrementRule })}
        >
          {(Object.keys(INCREMENT_LABELS) as IncrementRule[]).map((rule) => <option key={rule} value={rule}>{INCREMENT_LABELS[rule]}</option>)}
        </select>
        <p className="aa-hint" id={`${idPrefix}-rule-hint`}>
          {locked ? 'Bid steps and the cancel policy are fixed once a lot has bids.' : RULE_HINTS[value.incrementRule]}
        </p>
      </div>

      {value.incrementRule === 'flat' && (
        <div className="field aa-step-amount">
          <label className="field-label" htmlFor={`${idPrefix}-amount`}>Step (₹)</label>
          <input
            id={`${idPrefix}-amount`}
            className={`input${error ? ' input-invalid' : ''}`}
            inputMode="decimal"
            autoComplete="off"
            value={value.incrementAmount}
            disabled={locked}
            placeholder="1"
            onChange={(e) => set({ incrementAmount: e.target.value })}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${idPrefix}-amount-hint ${errorId}` : `${idPrefix}-amount-hint`}
          />
          <p className="aa-hint" id={`${idPrefix}-amount-hint`}>From ₹1 to ₹1,00,000. With ₹50, a lot at ₹1,000 takes bids from ₹1,050.</p>
        </div>
      )}

      {value.incrementRule === 'custom' && (
        <div className="aa-tiers" role="group" aria-label="Custom steps" aria-describedby={error ? errorId : undefined}>
          {value.tiers.map((tier, i) => (
            <div className="aa-tier" key={i} data-testid="tier-row">
              {i < last ? (
                <label className="aa-tier-part">
                  <span>{i === 0 ? 'Below ₹' : 'then below ₹'}</span>
                  <input className="input aa-tier-input" inputMode="decimal" autoComplete="off" value={tier.below} disabled={locked}
                    aria-label={`Band ${i + 1}: highest bid below (₹)`} onChange={(e) => setTier(i, { below: e.target.value })} />
                </label>
              ) : (
                <span className="aa-tier-part aa-tier-rest">{i === 0 ? 'At every price' : 'Above that'}</span>
              )}
              <label className="aa-tier-part aa-tier-step">
                <span>step ₹</span>
                <input className="input aa-tier-input" inputMode="decimal" autoComplete="off" value={tier.step} disabled={locked}
                  aria-label={`Band ${i + 1}: step (₹)`} onChange={(e) => setTier(i, { step: e.target.value })} />
              </label>
              {value.tiers.length > 1 && !locked && (
                <button type="button" className="btn btn-sm btn-outline aa-tier-remove" onClick={() => removeTier(i)} aria-label={`Remove band ${i + 1}`}>Remove</button>
              )}
            </div>
          ))}
          {!locked && value.tiers.length < 20 && (
            <button type="button" className="btn btn-sm btn-outline aa-tier-add" onClick={addTier}>Add a price band</button>
          )}
        </div>
      )}
      {error && <p className="field-error" id={errorId} role="alert">{error}</p>}

      <div className="field" role="radiogroup" aria-labelledby={`${idPrefix}-cancel-label`}>
        <span className="field-label" id={`${idPrefix}-cancel-label`}>Cancelling bids</span>
        <label className="aa-radio">
          <input type="radio" name={`${idPrefix}-cancel`} value="until_end" checked={value.cancelPolicy === 'until_end'} disabled={locked}
            onChange={() => set({ cancelPolicy: 'until_end' })} />
          <span><strong>Until the end</strong> — a bidder may cancel their leading bid at any time before the auction ends.</span>
        </label>
        <label className="aa-radio">
          <input type="radio" name={`${idPrefix}-cancel`} value="strict" checked={value.cancelPolicy === 'strict'} disabled={locked}
            onChange={() => set({ cancelPolicy: 'strict' })} />
          <span><strong>Strict</strong> — only within 10 minutes of placing the bid, and never in the auction’s last hour.</span>
        </label>
      </div>
    </>
  );
}
