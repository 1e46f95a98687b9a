/**
 * CSV in and out (RFC 4180). Reading: fields split by commas, records by CRLF or LF; a quoted field
 * may hold commas, line breaks and doubled quotes; a UTF-8 byte-order mark at the start is skipped.
 * Writing: the shared cell rules (@auction/shared's csvCell: the same quoting, formula cells defused),
 * as the client's exports use.
 */
import { csvRow } from '@auction/shared';

export { csvCell } from '@auction/shared';

/** A record and the line of the file it starts on (1: the first line). */
export interface CsvRecord {
  line: number;
  fields: string[];
}

export class CsvSyntaxError extends Error {
  constructor(message: string, readonly line: number) {
    super(message);
  }
}

/**
 * The records of a CSV text. A blank line is no record (a file that ends in a line break has no empty
 * last record); a quote opened and never closed, or text after a closing quote, is a CsvSyntaxError.
 */
export function parseCsv(text: string): CsvRecord[] {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let start = 1;
  let i = 0;
  // Whether the current record has anything in it yet (a blank line has not).
  let begun = false;
  // Whether the field just read was quoted (so nothing but a comma or line break may follow).
  let quoted = false;
  const endField = () => {
    fields.push(field);
    field = '';
  };
  const endRecord = () => {
    if (begun || fields.length > 0) {
      endField();
      records.push({ line: start, fields });
    }
    fields = [];
    field = '';
    begun = false;
  };
  while (i < src.length) {
    const c = src[i];
    if (c === '"' && field === '' && !quoted) {
      // A quoted field: up to the next lone quote.
      const opened = line;
      i++;
      for (;;) {
        if (i >= src.length) throw new CsvSyntaxError(`A quoted field opened on line ${opened} is never closed`, opened);
        const q = src[i];
        if (q === '"') {
          if (src[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        if (q === '\n') line++;
        field += q;
        i++;
      }
      begun = true;
      const next = src[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new CsvSyntaxError(`Line ${line}: a quoted field must end at a comma or the end of the line`, line);
      }
      quoted = true;
      continue;
    }
    if (c === ',') {
      endField();
      begun = true;
      quoted = false;
      i++;
    } else if (c === '\r' || c === '\n') {
      endRecord();
      quoted = false;
      i += c === '\r' && src[i + 1] === '\n' ? 2 : 1;
      line++;
      start = line;
    } else {
      if (c === '"') throw new CsvSyntaxError(`Line ${line}: a quote inside an unquoted field must be within a quoted field, doubled`, line);
      field += c;
      begun = true;
      i++;
    }
  }
  endRecord();
  return records;
}

/** A header line and one line per row, CRLF after every line (cells by the shared rules: csvRow). */
export function csvDocument(header: readonly string[], rows: readonly (readonly (string | null)[])[]): string {
  return [header, ...rows].map((cells) => `${csvRow(cells)}\r\n`).join('');
}
