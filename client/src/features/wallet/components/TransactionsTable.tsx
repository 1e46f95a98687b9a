import type { Transaction } from '@auction/shared';
import { Badge } from '../../../components/ui/Badge';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { isCredit, signedAmountText, transactionDescription, transactionTypeLabel } from '../model';

/** The ledger, newest first; below 720 px each row becomes a card (labels from data-label, see wallet.css). */
export function TransactionsTable({ transactions }: { transactions: readonly Transaction[] }) {
  return (
    <div className="table-wrap">
      <table className="table wallet-table">
        <caption className="visually-hidden">Wallet transactions, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Type</th>
            <th scope="col" className="wallet-col-amount">Amount</th>
            <th scope="col">Date &amp; Time</th>
            <th scope="col">Description</th>
          </tr>
        </thead>
        <tbody>
          {transactions.map((t) => <TransactionRow key={t._id} t={t} />)}
        </tbody>
      </table>
    </div>
  );
}

function TransactionRow({ t }: { t: Transaction }) {
  const { label, tone } = transactionTypeLabel(t.type);
  const { text, product } = transactionDescription(t);
  const credit = isCredit(t.type);
  return (
    <tr>
      <td data-label="Type" className="wallet-cell-type"><Badge tone={tone}>{label}</Badge></td>
      <td data-label="Amount" className={`num wallet-col-amount ${credit ? 'amount-plus' : 'amount-minus'}`}>
        <span className="visually-hidden">{credit ? 'Credit ' : 'Debit '}</span>
        {signedAmountText(t, formatRupees)}
      </td>
      <td data-label="Date & Time" className="wallet-date">
        <time dateTime={t.timestamp}>{formatDateTime(t.timestamp)}</time>
      </td>
      <td data-label="Description" className="wallet-desc">
        <div className="wallet-desc-stack">
          <span>{text}</span>
          {product && <span className="wallet-desc-sub">Product: {product}</span>}
        </div>
      </td>
    </tr>
  );
}
