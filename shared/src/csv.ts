/**
 * CSV cells for every export, client and server alike: RFC 4180 quoting, and text cells a spreadsheet
 * would run as a formula (= + - @, tab, CR first) defused with a leading single quote. A text that is
 * only a signed number (a phone number such as +919876543210, an amount such as -12.50) runs nothing
 * and stays as it is (OWASP's CSV injection advice). A text that already starts with quotes before
 * such a formula (`'=x`) gets one more, so that `csvCellText` can take exactly one away again and an
 * exported file reads back as it was.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const SIGNED_NUMBER = /^[+-]\d+(\.\d+)?$/;
const NEEDS_QUOTES = /[",\r\n]/;
const LEADING_QUOTES = /^'+/;

export type CsvValue = string | number | boolean | null | undefined;

/** Whether csvCell defuses this text: after any leading single quotes, a formula that is not just a signed number. */
function defused(text: string): boolean {
  const rest = text.replace(LEADING_QUOTES, '');
  return FORMULA_START.test(rest) && !SIGNED_NUMBER.test(rest);
}

/** One cell. Numbers are written as numbers; text is defused, then quoted when it must be; null is blank. */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  if (typeof value === 'boolean') return String(value);
  const text = defused(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The text a cell holds once read (its quoting already undone): csvCell's defusing taken back, so that
 * `csvCellText` of what csvCell wrote is the text it was given. A leading `'` goes only when what
 * follows it is one csvCell would have defused (`'=SUM(A1)` → `=SUM(A1)`; `'-5` and `'plain` stay).
 */
export function csvCellText(cell: string): string {
  return cell.startsWith("'") && defused(cell.slice(1)) ? cell.slice(1) : cell;
}

/** One line's cells, comma-separated (no line break). */
export function csvRow(cells: readonly CsvValue[]): string {
  return cells.map(csvCell).join(',');
}
