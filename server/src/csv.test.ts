import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, csvCell, csvDocument, parseCsv } from './csv.js';

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

  it('refuses an unclosed quote and text after a closing quote', () => {
    expect(() => parseCsv('a\n"open')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('"a"b\n')).toThrow(CsvSyntaxError);
    expect(() => parseCsv('a"b\n')).toThrow(CsvSyntaxError);
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

  it('round-trips through parseCsv', () => {
    const rows = [['a,b', 'say "hi"', 'x\r\ny', '', 'é ₹']];
    expect(fields(csvDocument(['h1', 'h2', 'h3', 'h4', 'h5'], rows))).toEqual([['h1', 'h2', 'h3', 'h4', 'h5'], ...rows]);
  });
});
