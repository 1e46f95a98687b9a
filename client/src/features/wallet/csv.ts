/** transactions.csv: every field of every transaction (spec §3), through the shared CSV rules. */
import type { Transaction } from '@auction/shared';
import { csvDocument } from '../../lib/csv';

export { csvCell } from '../../lib/csv';

export const CSV_FILENAME = 'transactions.csv';
export const CSV_COLUMNS = ['_id', 'type', 'amount', 'timestamp', 'notes', 'product_id'] as const;

export function transactionsCsv(transactions: readonly Transaction[]): string {
  return csvDocument(CSV_COLUMNS, transactions.map((t) => [t._id, t.type, t.amount, t.timestamp, t.meta.notes, t.meta.product_id]));
}
