/**
 * CSV cells for every export, client and server alike: RFC 4180 quoting, and text cells a spreadsheet
 * would run as a formula (= + - @, tab, CR first) defused with a leading single quote. A text that is
 * only a signed number (a phone number such as +919876543210, an amount such as -12.50) runs nothing
 * and stays as it is (OWASP's CSV injection advice).
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | null | undefined;

/** One cell. Numbers are written as numbers; text is defused, then quoted when it must be; null is blank. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = FORMULA_START.test(value) && !SIGNED_NUMBER.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One line's cells, comma-separated (no line break). */
export function csvRow(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(',');
}
