import { useId, useState, type FormEvent } from 'react';
import { LIMITS, QUICK_TOPUP_AMOUNTS } from '@auction/shared';
import { FormField } from '../../../components/ui/FormField';
import { Modal } from '../../../components/ui/Modal';
import { toast } from '../../../components/ui/toast/toast-store';
import { formatRupees } from '../../../lib/format';
import { addedMessage, validateTopUp } from '../../../lib/account/wallet-model';
import { useTopUp } from '../store/wallet-store';

/** Add Funds: an amount (typed or picked), checked against the top-up bounds (₹10 to ₹1,00,000) before it is sent. */
export function AddFundsModal({ onClose }: { onClose: () => void }) {
  const topUp = useTopUp((s) => s.topUp);
  const busy = useTopUp((s) => s.toppingUp);
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | undefined>();
  const formId = useId();

  function change(next: string) {
    setValue(next);
    // Once the rule has been shown, it follows the input so the message goes away when it is met.
    if (error !== undefined) {
      const check = validateTopUp(next);
      setError(check.ok ? undefined : check.error);
    }
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const check = validateTopUp(value);
    if (!check.ok) {
      setError(check.error);
      return;
    }
    const result = await topUp(check.amount);
    if (result.ok) {
      toast.success(addedMessage(check.amount, formatRupees));
      onClose();
    } else toast.error(result.error);
  }

  return (
    <Modal
      title="Add Funds"
      onClose={onClose}
      footer={(
        <>
          <button type="button" className="btn btn-outline" onClick={onClose} disabled={busy}>Cancel</button>
          <button type="submit" form={formId} className="btn btn-primary" disabled={busy}>{busy ? 'Adding…' : 'Add'}</button>
        </>
      )}
    >
      <form id={formId} className="wallet-topup-form" onSubmit={(e) => void submit(e)} noValidate>
        <FormField
          id={`${formId}-amount`}
          label="Amount (₹)"
          type="number"
          inputMode="decimal"
          min={LIMITS.topupMinRupees}
          max={LIMITS.topupMaxRupees}
          step="0.01"
          placeholder="Enter amount"
          value={value}
          onValueChange={change}
          error={error}
          readOnly={busy}
        />
        {error === undefined && (
          <p className="wallet-topup-hint">
            Between {formatRupees(LIMITS.topupMinRupees)} and {formatRupees(LIMITS.topupMaxRupees)} per top-up.
          </p>
        )}
        <div className="wallet-topup-quick" role="group" aria-label="Quick select amount">
          {QUICK_TOPUP_AMOUNTS.map((amount) => (
            <button
              key={amount}
              type="button"
              className="wallet-chip"
              aria-pressed={value === String(amount)}
              onClick={() => change(String(amount))}
              disabled={busy}
            >
              {formatRupees(amount)}
            </button>
          ))}
        </div>
      </form>
    </Modal>
  );
}
