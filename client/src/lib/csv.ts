/**
 * CSV for every export: the cells by the shared rules (quoting, formula cells defused: @auction/shared's
 * csvCell), amounts as spreadsheet numbers, and the download.
 */
import { csvCell, csvRow, formatRupees, type CsvValue } from '@auction/shared';

export { csvCell, csvRow, type CsvValue };

/** An amount in rupees as a spreadsheet's number cell: 1500, 1500.50, -12.05 (formatRupees' plain form); blank for none. */
export function csvAmount(rupees: number | null | undefined): string {
  return rupees === null || rupees === undefined ? '' : formatRupees(rupees, { plain: true });
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
