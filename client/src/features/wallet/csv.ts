/**
 * transactions.csv: every transaction, all its fields, in words a person reads, through the shared CSV rules.
 * Newest first, as on screen. `signed amount` is + for money in (top-ups, refunds) and − for money out
 * (bid holds and payments), so the column sums to the wallet balance; `balance after` is that sum up
 * to and including the row.
 */
import { toPaise, toRupees, type Transaction } from '@auction/shared';
import { csvAmount, csvDocument, type CsvValue } from '../../lib/csv';
import { signedAmount, transactionBadge, transactionDescription } from '../../lib/account/wallet-model';

export { csvCell } from '../../lib/csv';

export const CSV_FILENAME = 'transactions.csv';
export const CSV_COLUMNS = [
  'id', 'date (UTC)', 'type', 'description', 'product id', 'product name', 'amount (₹)', 'signed amount (₹)', 'balance after (₹)',
] as const;

/** `2026-03-02 08:30:00`: a date-time spreadsheets read as one; the raw text when it is not a date. */
export function csvDateTime(timestamp: string): string {
  const d = new Date(timestamp);
  return Number.isNaN(d.getTime()) ? timestamp : d.toISOString().slice(0, 19).replace('T', ' ');
}

export function transactionsCsv(transactions: readonly Transaction[]): string {
  // The running balance is summed oldest first in paise, then the rows are written newest first.
  const balances: number[] = new Array<number>(transactions.length);
  let paise = 0;
  for (let i = transactions.length - 1; i >= 0; i -= 1) {
    paise += toPaise(signedAmount(transactions[i]!));
    balances[i] = toRupees(paise);
  }
  return csvDocument(CSV_COLUMNS, transactions.map((t, i): CsvValue[] => {
    const { text, productId, productName } = transactionDescription(t);
    return [
      t._id, csvDateTime(t.timestamp), transactionBadge(t).label, text, productId, productName,
      csvAmount(t.amount), csvAmount(signedAmount(t)), csvAmount(balances[i]),
    ];
  }));
}
