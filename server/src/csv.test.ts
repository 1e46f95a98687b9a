import { describe, expect, it } from 'vitest';
import { CsvCharsetError, CsvSyntaxError, charsetOf, csvCell, csvCellText, csvDocument, decodeCsv, parseCsv } from './csv.js';

const fields = (text: string) => parseCsv(text).map((r) => r.fields);

describe('parseCsv', () => {
  it('splits records on LF and CRLF, with or without a final line break', () => {
    expect(fields('a,b\n1,2')).toEqual([['a', 'b'], ['1', '2']]);
    expect(fields('a,b\r\n1,2\r\n')).toEqual([['a', 'b'], ['1', '2']]);
    expect(fields('a,b\r1,2\r')).toEqual([['a', 'b'], ['1', '2']]);
  });

  it('keeps empty fields and skips blank lines', () => {
    expect(fields('a,,c\n\n,\n')).toEqual([['a', '', 'c'], ['', '']]);
  });

  it('reads quoted fields: commas, doubled quotes, line breaks', () => {
    expect(fields('"a, b","say ""hi""","two\r\nlines",""\n')).toEqual([['a, b', 'say "hi"', 'two\r\nlines', '']]);
  });

  it('skips a byte-order mark at the start only', () => {
    expect(fields('\uFEFFid,name\n')).toEqual([['id', 'name']]);
    expect(fields('id,\uFEFFname\n')).toEqual([['id', '\uFEFFname']]);
  });

  it('gives the line each record starts on', () => {
    expect(parseCsv('h\n"a\nb"\n\nc\n').map((r) => r.line)).toEqual([1, 2, 5]);
  });

  it('refuses an unclosed quote and text after a closing quote, on their line (named by `line`, not in the message)', () => {
    const thrown = (text: string) => {
      try {
        parseCsv(text);
      } catch (err) {
        expect(err).toBeInstanceOf(CsvSyntaxError);
        return err as CsvSyntaxError;
      }
      throw new Error('no CsvSyntaxError');
    };
    for (const [text, line] of [['a\n"open\nmore', 2], ['x\r\n"a"b\n', 2], ['a"b\n', 1]] as const) {
      const err = thrown(text);
      expect(err.line).toBe(line);
      expect(err.message).not.toMatch(/line \d/i);
    }
  });
});

describe('csvCell and csvDocument', () => {
  it('quotes what must be quoted', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
  });

  it('defuses formulas but not signed numbers', () => {
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('+919876543210')).toBe('+919876543210');
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell('-x')).toBe("'-x");
    expect(csvCell('\tx')).toBe("'\tx");
  });

  it('defuses a text that starts with quotes before a formula once more, so that csvCellText gives every text back', () => {
    expect(csvCell("'=SUM(A1)")).toBe("''=SUM(A1)");
    expect(csvCell("'-5")).toBe("'-5");
    expect(csvCell("'plain")).toBe("'plain");
    const texts = ['=SUM(A1)', '+91 phone', '-5% off', '@home', '+919876543210', '-12.50', "'=x", "''=x", "'-5", "'", "''", "'plain", "it's", '\tx', '\r=1', '-', "'+91 98"];
    for (const text of texts) expect(csvCellText(fields(csvDocument(['h'], [[text]]))[1]![0]!)).toBe(text);
    // What no export writes is read as it is.
    expect(csvCellText("'-5")).toBe("'-5");
    expect(csvCellText('=SUM(A1)')).toBe('=SUM(A1)');
  });

  it('round-trips through parseCsv', () => {
    const rows = [['a,b', 'say "hi"', 'x\r\ny', '', 'é ₹']];
    expect(fields(csvDocument(['h1', 'h2', 'h3', 'h4', 'h5'], rows))).toEqual([['h1', 'h2', 'h3', 'h4', 'h5'], ...rows]);
  });
});

describe('charsetOf and decodeCsv', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');

  it('reads the charset a Content-Type declares', () => {
    expect(charsetOf('text/csv')).toBeNull();
    expect(charsetOf(undefined)).toBeNull();
    expect(charsetOf('text/csv; charset=ISO-8859-1')).toBe('iso-8859-1');
    expect(charsetOf('text/csv;charset="windows-1252"; header=present')).toBe('windows-1252');
    expect(charsetOf('text/csv; charset=')).toBeNull();
  });

  it('decodes as declared, windows-1252 as browsers do, and a byte-order mark first', () => {
    expect(decodeCsv(latin1('Café'), 'iso-8859-1')).toBe('Café');
    expect(decodeCsv(latin1('Café'), 'latin1')).toBe('Café');
    expect(decodeCsv(Buffer.from([0x80, 0x85, 0x92, 0x9f]), 'windows-1252')).toBe('€…’Ÿ');
    expect(decodeCsv(Buffer.from([0x80]), 'iso-8859-1')).toBe('€');
    expect(decodeCsv(Buffer.from('Café'), null)).toBe('Café');
    expect(decodeCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('Café')]), 'iso-8859-1')).toBe('Café');
    expect(decodeCsv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Café', 'utf16le')]), null)).toBe('Café');
  });

  it('refuses an unknown charset, and bytes that are not text in the encoding, by line', () => {
    expect(() => decodeCsv(Buffer.from('a'), 'klingon')).toThrow(CsvCharsetError);
    const bad = (bytes: Buffer) => {
      try {
        decodeCsv(bytes, null);
      } catch (err) {
        expect(err).toBeInstanceOf(CsvSyntaxError);
        return (err as CsvSyntaxError).line;
      }
      throw new Error('decoded');
    };
    expect(bad(latin1('Café'))).toBe(1);
    expect(bad(latin1('a\r\nb\nc\rCafé\nd'))).toBe(4);
    expect(bad(Buffer.concat([Buffer.from('a\n"two\nlines"\n'), Buffer.from([0xc3])]))).toBe(4);
  });
});
