import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvCell, transactionsCsv } from './csv';
import { makeTx } from './testing';

describe('csvCell', () => {
  it('defuses text that a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+1+2')).toBe("'+1+2");
    expect(csvCell('-2+3')).toBe("'-2+3");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
  });

  it('leaves ordinary text and numbers alone, formula characters inside the text included', () => {
    expect(csvCell('Wallet top-up')).toBe('Wallet top-up');
    expect(csvCell('a=b')).toBe('a=b');
    expect(csvCell(1500.5)).toBe('1500.5');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });

  it('quotes commas, quotes and line breaks per RFC 4180', () => {
    expect(csvCell('Vase, blue')).toBe('"Vase, blue"');
    expect(csvCell('the "best" one')).toBe('"the ""best"" one"');
    expect(csvCell('line one\nline two')).toBe('"line one\nline two"');
    expect(csvCell('a\r\nb')).toBe('"a\r\nb"');
  });
});

describe('transactionsCsv', () => {
  it('has the header of every field and one CRLF line per transaction with all of them', () => {
    const csv = transactionsCsv([
      makeTx('bid', 2500, { _id: '7', notes: null, product_id: 'P-1', timestamp: '2026-03-02T08:30:00.000Z' }),
      makeTx('refund', 300.5, { _id: '8', notes: 'Outbid on Vase, blue: hold released', product_id: 'P-2', timestamp: '2026-03-02T09:00:00.000Z' }),
      makeTx('topup', 1000, { _id: '9', notes: '=cmd|calc', timestamp: '2026-03-01T10:00:00.000Z' }),
    ]);
    const lines = csv.split('\r\n');
    expect(CSV_COLUMNS).toEqual(['_id', 'type', 'amount', 'timestamp', 'notes', 'product_id']);
    expect(lines).toEqual([
      '_id,type,amount,timestamp,notes,product_id',
      '7,bid,2500,2026-03-02T08:30:00.000Z,,P-1',
      '8,refund,300.5,2026-03-02T09:00:00.000Z,"Outbid on Vase, blue: hold released",P-2',
      "9,topup,1000,2026-03-01T10:00:00.000Z,'=cmd|calc,",
    ]);
  });

  it('is the header alone for no transactions', () => {
    expect(transactionsCsv([])).toBe('_id,type,amount,timestamp,notes,product_id');
  });
});
