/**
 * CSV for every export: RFC 4180 quoting, and text cells a spreadsheet would run as a formula
 * (= + - @, tab, CR first) defused with a leading single quote. A text that is only a signed number
 * (a phone number such as +919876543210, an amount such as -12.50) runs nothing and stays as it is
 * (OWASP's CSV injection advice).
 */
import { formatRupees } from '@auction/shared';

const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

/** One cell. Numbers are written as numbers; text is defused, then quoted when it must be. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** An amount in rupees as a spreadsheet's number cell: 1500, 1500.50, -12.05 (formatRupees' plain form); blank for none. */
export function csvAmount(rupees: number | null | undefined): string {
  return rupees === null || rupees === undefined ? '' : formatRupees(rupees, { plain: true });
}

export function csvRow(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(',');
}

/** A header line and one line per row, CRLF between lines. */
export function csvDocument(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [csvRow(header), ...rows.map(csvRow)].join('\r\n');
}

/** Saves text as a file through a temporary object URL (the browser's own download flow). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  // The byte-order mark makes spreadsheet apps read the file as UTF-8 (product names, ₹ in notes).
  const url = URL.createObjectURL(new Blob(['\uFEFF', text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
