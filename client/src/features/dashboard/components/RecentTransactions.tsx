import type { Transaction } from '@auction/shared';
import { EmptyState } from '../../../components/ui/EmptyState';
import { Spinner } from '../../../components/ui/Spinner';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { describeTransaction } from '../stats';

/** The first five ledger rows with sign and colour: bids minus in red, top-ups and refunds plus in green. */
export function RecentTransactions({ transactions, loading, onViewAll }: {
  transactions: Transaction[];
  loading: boolean;
  onViewAll: () => void;
}) {
  return (
    <section className="card dash-panel" aria-labelledby="dash-recent-transactions">
      <div className="card-header">
        <h3 id="dash-recent-transactions" className="card-title">Recent Transactions</h3>
        <button type="button" className="btn btn-outline btn-sm" onClick={onViewAll}>View All</button>
      </div>
      {loading ? <Spinner label="Loading transactions…" /> : transactions.length === 0 ? (
        <EmptyState icon="wallet" title="No transactions yet">Add funds to start bidding!</EmptyState>
      ) : (
        <ul className="dash-list">
          {transactions.map((t) => {
            const view = describeTransaction(t);
            return (
              <li key={t._id} className="dash-row">
                <span className={`dash-row-icon dash-row-icon-${view.signed}`} aria-hidden="true">
                  {view.signed === 'plus' ? '+' : '−'}
                </span>
                <div className="dash-row-main">
                  <span className="dash-row-title">{view.label}</span>
                  <span className="dash-row-meta">
                    <span>{view.description}</span>
                    <span aria-hidden="true"> · </span>
                    <span>{formatDateTime(t.timestamp)}</span>
                  </span>
                </div>
                <span className={`dash-amount num amount-${view.signed}`}>
                  {view.signed === 'plus' ? '+' : '-'}{formatRupees(t.amount)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
