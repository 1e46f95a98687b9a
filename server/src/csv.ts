/**
 * CSV in and out (RFC 4180). Reading: the bytes decoded as the sender declared (`decodeCsv`), then
 * fields split by commas, records by CRLF or LF; a quoted field may hold commas, line breaks and
 * doubled quotes; a UTF-8 byte-order mark at the start is skipped. Writing: the shared cell rules
 * (@auction/shared's csvCell: the same quoting, formula cells defused), as the client's exports use;
 * csvCellText reads a defused cell back as it was.
 */
import { TextDecoder } from 'node:util';
import { csvRow } from '@auction/shared';

export { csvCell, csvCellText } from '@auction/shared';

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
 * last record); a quote opened and never closed, or text after a closing quote, is a CsvSyntaxError
 * (its message names no line: its `line` does).
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
        if (i >= src.length) throw new CsvSyntaxError('A quoted field starts on this line and is never closed (a quote inside a field is written twice)', opened);
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
        throw new CsvSyntaxError('A quoted field must end at a comma or the end of the line', line);
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
      if (c === '"') throw new CsvSyntaxError('A quote inside a field must be in a quoted field, written twice', line);
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

/** A charset the import cannot read (TextDecoder knows no such label). */
export class CsvCharsetError extends Error {
  constructor(readonly charset: string) {
    super(`The charset ${JSON.stringify(charset)} is not one the import reads: send UTF-8, or declare a charset such as iso-8859-1 or windows-1252`);
  }
}

const CHARSET_PARAM = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** The charset a Content-Type declares (`text/csv; charset=iso-8859-1`), lower-case; null when none. */
export function charsetOf(contentType: string | undefined): string | null {
  const m = CHARSET_PARAM.exec(contentType ?? '');
  const label = (m?.[1] ?? m?.[2] ?? '').trim().toLowerCase();
  return label === '' ? null : label;
}

/** The encoding a byte-order mark names, as the WHATWG Encoding Standard's decode sniffs it. */
function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/**
 * windows-1252's letters for the bytes 0x80–0x9F (the WHATWG Encoding Standard's index), which is
 * what iso-8859-1 and latin1 mean there too. Node 20's TextDecoder reads these bytes as Latin-1 (the
 * C1 controls U+0080–U+009F: nodejs/node#56542), so they are mapped again after decoding.
 */
const WINDOWS_1252_HIGH =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';
const C1 = /[\u0080-\u009f]/g;

const LINE_BREAKS = /\r\n|\r|\n/g;

/** The line (as parseCsv counts them) of the first bytes `encoding` cannot read: the text decoded up to each line break. */
function unreadableLine(bytes: Uint8Array, encoding: string): number {
  const decoder = new TextDecoder(encoding, { fatal: true });
  let text = '';
  let start = 0;
  try {
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] !== 0x0a && bytes[i] !== 0x0d) continue;
      text += decoder.decode(bytes.subarray(start, i + 1), { stream: true });
      start = i + 1;
    }
    decoder.decode(bytes.subarray(start));
  } catch {
    // The bytes from `start` on hold the first that cannot be read.
  }
  return (text.match(LINE_BREAKS)?.length ?? 0) + 1;
}

/**
 * A file's text: its bytes read in the declared charset (none: UTF-8; any label TextDecoder knows, such
 * as iso-8859-1, latin1 or windows-1252, which it reads as browsers do). A byte-order mark names the
 * encoding whatever was declared, and is skipped. Bytes that are not text in that encoding are a
 * CsvSyntaxError on their line (never replaced by U+FFFD); an unknown charset is a CsvCharsetError.
 */
export function decodeCsv(bytes: Uint8Array, charset: string | null): string {
  const bom = bomEncoding(bytes);
  const encoding = bom ?? charset ?? 'utf-8';
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(encoding, { fatal: true });
  } catch {
    throw new CsvCharsetError(encoding);
  }
  try {
    const text = decoder.decode(bytes);
    return decoder.encoding === 'windows-1252' ? text.replace(C1, (c) => WINDOWS_1252_HIGH[c.charCodeAt(0) - 0x80]!) : text;
  } catch {
    const why = bom ? 'as its byte-order mark says' : charset ? 'the charset declared' : 'read when no charset is declared';
    throw new CsvSyntaxError(
      `This line holds bytes that are not ${decoder.encoding.toUpperCase()} text (${why}): save the file as UTF-8, or declare the charset it is in (text/csv; charset=windows-1252, for example)`,
      unreadableLine(bytes, encoding),
    );
  }
}
