/**
 * transactions.csv: every field of every transaction (spec §3), RFC 4180 quoting, and text cells that
 * a spreadsheet would run as a formula (= + - @, tab, CR first) defused with a leading single quote.
 */
import type { Transaction } from '@auction/shared';

export const CSV_FILENAME = 'transactions.csv';
export const CSV_COLUMNS = ['_id', 'type', 'amount', 'timestamp', 'notes', 'product_id'] as const;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell. Numbers are written as numbers; text is defused, then quoted when it must be. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: readonly (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(',');
}

/** The header and one line per transaction, CRLF between lines. */
export function transactionsCsv(transactions: readonly Transaction[]): string {
  const lines = [csvRow(CSV_COLUMNS)];
  for (const t of transactions) {
    lines.push(csvRow([t._id, t.type, t.amount, t.timestamp, t.meta.notes, t.meta.product_id]));
  }
  return lines.join('\r\n');
}
