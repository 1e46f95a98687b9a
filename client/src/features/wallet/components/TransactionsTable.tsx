import type { Transaction } from '@auction/shared';
import { DataTable, type Column } from '../../../components/ui/DataTable';
import { Badge } from '../../../components/ui/Badge';
import { formatDateTime, formatRupees } from '../../../lib/format';
import { isCredit, signedAmountText, transactionBadge, transactionDescription } from '../../../lib/account/wallet-model';

function KindBadge({ t }: { t: Transaction }) {
  const { label, tone } = transactionBadge(t);
  return <Badge tone={tone}>{label}</Badge>;
}

const COLUMNS: Column<Transaction>[] = [
  { key: 'type', header: 'Type', area: 'type', cell: (t) => <KindBadge t={t} /> },
  {
    key: 'amount', header: 'Amount', area: 'amount', align: 'end',
    className: (t) => `num wallet-amount ${isCredit(t.type) ? 'amount-plus' : 'amount-minus'}`,
    cell: (t) => (
      <>
        <span className="visually-hidden">{isCredit(t.type) ? 'Credit ' : 'Debit '}</span>
        {signedAmountText(t, formatRupees)}
      </>
    ),
  },
  {
    key: 'date', header: 'Date & Time', area: 'date', className: 'wallet-date',
    cell: (t) => <time dateTime={t.timestamp}>{formatDateTime(t.timestamp)}</time>,
  },
  {
    key: 'description', header: 'Description', area: 'desc', className: 'wallet-desc',
    cell: (t) => {
      const { text, detail, product } = transactionDescription(t);
      return (
        <div className="wallet-desc-stack">
          <span className="wallet-desc-main">{text}</span>
          {detail && <span className="wallet-desc-sub">{detail}</span>}
          {product && <span className="wallet-desc-sub">Product: {product}</span>}
        </div>
      );
    },
  },
];

/** The ledger, newest first; at 720 px and below each row is a compact card: type and amount, then what it was, then when. */
export function TransactionsTable({ transactions }: { transactions: readonly Transaction[] }) {
  return (
    <DataTable
      className="wallet-table"
      caption="Wallet transactions, newest first"
      columns={COLUMNS}
      rows={transactions}
      rowKey={(t) => t._id}
      card={{ columns: 'minmax(0, 1fr) auto', areas: ['type amount', 'desc desc', 'date date'] }}
    />
  );
}
