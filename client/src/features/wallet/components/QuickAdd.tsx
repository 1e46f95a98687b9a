import { QUICK_TOPUP_AMOUNTS } from '@auction/shared';
import { formatRupees } from '../../../lib/format';
import { Icon } from '../../../components/ui/Icon';

/** Four quick top-ups (QUICK_TOPUP_AMOUNTS); each asks for a confirmation (WalletPage) before any money moves. */
export function QuickAdd({ busy, pending, onAdd }: { busy: boolean; pending: number | null; onAdd: (amount: number) => void }) {
  return (
    <section className="wallet-quick" aria-labelledby="wallet-quick-title">
      <h2 id="wallet-quick-title" className="wallet-section-title">Quick Add</h2>
      <ul className="wallet-quick-grid">
        {QUICK_TOPUP_AMOUNTS.map((amount) => (
          <li key={amount}>
            <button
              type="button"
              className="wallet-quick-card"
              onClick={() => onAdd(amount)}
              disabled={busy}
              aria-haspopup="dialog"
            >
              <span className="wallet-quick-icon" aria-hidden="true"><Icon name="plus" size={18} /></span>
              <span className="wallet-quick-amount">{formatRupees(amount)}</span>{' '}
              <span className="wallet-quick-hint">{pending === amount ? 'Adding…' : 'Add to wallet'}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
