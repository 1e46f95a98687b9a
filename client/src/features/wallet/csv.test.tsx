import { describe, expect, it } from 'vitest';
import { CSV_COLUMNS, csvCell, transactionsCsv } from './csv';
import { balanceFromLedger, totalsOf } from '../../lib/account/wallet-model';
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
    // A phone number or a signed amount as text is a number to a spreadsheet, not a formula.
    expect(csvCell('+919876543210')).toBe('+919876543210');
    expect(csvCell('-12.50')).toBe('-12.50');
    expect(csvCell('+91 98765')).toBe("'+91 98765");
    expect(csvCell('-1e5')).toBe("'-1e5");
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
  const HEADER = 'id,date (UTC),type,description,product id,product name,amount (₹),signed amount (₹),balance after (₹)';
  // Newest first, as the API sends it: a top-up, a hold, its release when outbid, a new hold.
  const ledger = [
    makeTx('bid', 300.5, { _id: '4', notes: 'Bid on Vase, blue', product_id: 'P-2', product_name: 'Vase, blue', timestamp: '2026-03-02T09:30:00.000Z' }),
    makeTx('refund', 800.25, { _id: '3', notes: 'Outbid on Brass Lamp: hold released', product_id: 'P-1', product_name: 'Brass Lamp', timestamp: '2026-03-02T09:00:00.000Z' }),
    makeTx('bid', 800.25, { _id: '2', product_id: 'P-1', product_name: 'Brass Lamp', timestamp: '2026-03-02T08:30:00.000Z' }),
    makeTx('topup', 1000, { _id: '1', notes: '=cmd|calc', timestamp: '2026-03-01T10:00:00.000Z' }),
  ];

  it('has a header for people and one CRLF line per transaction, newest first, with the product name beside its id', () => {
    expect(CSV_COLUMNS.join(',')).toBe(HEADER);
    expect(transactionsCsv(ledger).split('\r\n')).toEqual([
      HEADER,
      '4,2026-03-02 09:30:00,Bid,"Bid on Vase, blue",P-2,"Vase, blue",300.50,-300.50,699.50',
      '3,2026-03-02 09:00:00,Refund,Outbid on Brass Lamp: hold released,P-1,Brass Lamp,800.25,800.25,1000',
      '2,2026-03-02 08:30:00,Bid,Bid placed,P-1,Brass Lamp,800.25,-800.25,199.75',
      "1,2026-03-01 10:00:00,Top-up,'=cmd|calc,,,1000,1000,1000",
    ]);
  });

  it('signs credits + and holds −, so the signed amounts sum to the balance (the newest balance after)', () => {
    const rows = transactionsCsv(ledger).split('\r\n').slice(1).map((line) => line.match(/(-?[\d.]+),(-?[\d.]+)$/)!);
    const paise = rows.reduce((sum, m) => sum + Math.round(Number(m[1]) * 100), 0);
    expect(paise / 100).toBe(balanceFromLedger(totalsOf(ledger)));
    expect(Number(rows[0]![2])).toBe(balanceFromLedger(totalsOf(ledger)));
  });

  it('leaves the product name empty when the server did not send one, and keeps an unreadable date as it came', () => {
    const [, line] = transactionsCsv([makeTx('refund', 50, { _id: '5', product_id: 'P-9', timestamp: 'soon' })]).split('\r\n');
    expect(line).toBe('5,soon,Refund,Bid refund,P-9,,50,50,50');
  });

  it('is the header alone for no transactions', () => {
    expect(transactionsCsv([])).toBe(HEADER);
  });
});
