import { useState } from 'react';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Icon } from '../../../components/ui/Icon';
import { LoadMore } from '../../../components/ui/LoadMore';
import { ConfirmDialog } from '../../../components/ui/Modal';
import { Spinner } from '../../../components/ui/Spinner';
import { StatCard } from '../../../components/ui/StatCard';
import { toast } from '../../../components/ui/toast/toast-store';
import { formatRupees } from '../../../lib/format';
import { CSV_FILENAME, transactionsCsv } from '../csv';
import { downloadText } from '../../../lib/csv';
import { errorText, isSessionEnded } from '../../../lib/api-client';
import { fetchWholeLedger } from '../api/wallet-api';
import { addedMessage, quickAddQuestion, walletStats } from '../../../lib/account/wallet-model';
import { loadMoreTransactions, useTopUp, useWalletView } from '../store/wallet-store';
import { AddFundsModal } from './AddFundsModal';
import { QuickAdd } from './QuickAdd';
import { TransactionsTable } from './TransactionsTable';
import './wallet.css';

export const NO_TRANSACTIONS = 'No transactions found. Add funds to start bidding!';
export const ON_HOLD_HINT = 'Held by your leading bids; back in your wallet when you’re outbid';
export const LOAD_MORE_FAILED = 'Could not load older transactions';
export const CSV_FAILED = 'Could not download your transactions';

/** /user/wallet: balance, what leading bids hold, top-ups and the ledger with its CSV export. */
export function WalletPage() {
  const { balance, balanceSource, onHold, transactions, totals, more, loaded, loading, error, reload } = useWalletView();
  const toppingUp = useTopUp((s) => s.toppingUp);
  const topUp = useTopUp((s) => s.topUp);
  const [adding, setAdding] = useState(false);
  // The quick-add amount waiting for its confirmation, then for the server.
  const [quickAmount, setQuickAmount] = useState<number | null>(null);
  const [quickPending, setQuickPending] = useState<number | null>(null);

  async function confirmQuickAdd() {
    if (quickAmount === null) return;
    const amount = quickAmount;
    setQuickPending(amount);
    const result = await topUp(amount);
    setQuickPending(null);
    setQuickAmount(null);
    if (result.ok) toast.success(addedMessage(amount, formatRupees));
    else toast.error(result.error);
  }

  const [exporting, setExporting] = useState(false);

  /** Every row, not only those loaded: read from the server 100 at a time, then written as one file. */
  async function downloadCsv() {
    if (exporting) return;
    if (transactions.length === 0) {
      toast.warning('No transactions to export');
      return;
    }
    setExporting(true);
    try {
      const all = more ? (await fetchWholeLedger()).transactions : transactions;
      downloadText(CSV_FILENAME, transactionsCsv(all));
      toast.success('CSV downloaded');
    } catch (err) {
      if (!isSessionEnded(err)) toast.error(errorText(err, CSV_FAILED));
    } finally {
      setExporting(false);
    }
  }

  const stats = totals === null ? null : walletStats(totals);
  const known = loaded || transactions.length > 0;
  const show = (n: number | string) => (known ? n : '—');
  const rupees = (n: number | null) => (n === null ? '—' : formatRupees(n));

  return (
    <div className="page wallet-page">
      <section className="wallet-hero" aria-labelledby="wallet-balance-label">
        <div className="wallet-hero-text">
          <span id="wallet-balance-label" className="wallet-hero-label">Current Balance</span>
          <span className="wallet-hero-value" aria-live="polite">{rupees(balance)}</span>
          <span className="wallet-hero-sub">
            Available for bidding
            {balanceSource === 'ledger' && <span className="wallet-hero-note"> · worked out from your transactions</span>}
          </span>
        </div>
        <button type="button" className="btn btn-accent btn-lg wallet-hero-btn" onClick={() => setAdding(true)}>
          <Icon name="plus" size={18} /> Add Funds
        </button>
      </section>

      <section className="stat-grid wallet-stats" aria-label="Wallet summary">
        <StatCard label="Available" value={rupees(balance)} icon="wallet" tone="success" hint="Ready to bid or spend" />
        <StatCard label="On hold" value={rupees(onHold)} icon="gavel" tone="warning" hint={ON_HOLD_HINT} />
        <StatCard label="Total Added" value={show(stats === null ? '—' : formatRupees(stats.totalAdded))} icon="plus" tone="info" hint="All your top-ups" />
        <StatCard label="Total Spent" value={show(stats === null ? '—' : formatRupees(stats.totalSpent))} icon="check" tone="danger" hint="Wins and buy-nows; holds are not spent" />
      </section>

      <QuickAdd busy={toppingUp} pending={quickPending} onAdd={setQuickAmount} />

      <section className="card" aria-labelledby="wallet-history-title">
        <div className="card-header wallet-history-header">
          <h2 id="wallet-history-title" className="card-title">Transaction History</h2>
          <div className="toolbar">
            <button type="button" className="btn btn-outline btn-sm" onClick={reload} disabled={loading} aria-busy={loading}>
              <Icon name="refresh" size={16} /> {loading ? 'Refreshing…' : 'Refresh'}
            </button>
            <button type="button" className="btn btn-primary btn-sm" onClick={() => void downloadCsv()} aria-busy={exporting}>
              <Icon name="download" size={16} /> {exporting ? 'Preparing CSV…' : 'Download CSV'}
            </button>
          </div>
        </div>
        {error && (
          <p className="wallet-error" role="alert">
            <Icon name="alert" size={18} /> <span>{error}</span>
            <button type="button" className="wallet-link-btn" onClick={reload}>Try again</button>
          </p>
        )}
        {!known && loading ? (
          <Spinner label="Loading your transactions…" />
        ) : transactions.length === 0 ? (
          !error && <EmptyState icon="wallet" title={NO_TRANSACTIONS} />
        ) : (
          <>
            <TransactionsTable transactions={transactions} />
            <LoadMore shown={transactions.length} total={totals?.count ?? null} more={more} onLoadMore={loadMoreTransactions} noun="transactions" failed={LOAD_MORE_FAILED} />
          </>
        )}
      </section>

      {adding && <AddFundsModal onClose={() => setAdding(false)} />}
      {quickAmount !== null && (
        <ConfirmDialog
          title="Confirm top-up"
          message={quickAddQuestion(quickAmount, formatRupees)}
          confirmLabel={quickPending !== null ? 'Adding…' : `Add ${formatRupees(quickAmount)}`}
          busy={quickPending !== null}
          onConfirm={() => void confirmQuickAdd()}
          onCancel={() => setQuickAmount(null)}
        />
      )}
    </div>
  );
}
