import { describe, expect, it } from 'vitest';
import { formatRupees, hasAtMostTwoDecimals, sumRupees, toPaise, toRupees } from './money.js';

describe('money', () => {
  it('accepts at most two decimals despite floating point', () => {
    for (const ok of [0, 1, 1.1, 1.15, 0.29, 300.5, 99999.99, 1_000_000_000]) expect(hasAtMostTwoDecimals(ok), String(ok)).toBe(true);
    for (const bad of [1.155, 0.001, Number.NaN, Infinity, -Infinity]) expect(hasAtMostTwoDecimals(bad), String(bad)).toBe(false);
  });

  it('is exact: any tail past the paisa is refused, however small (no tolerance)', () => {
    for (const bad of [10.000000001, 10.0000000001, 10.0000001, 0.30000000000000004, 1.005, 100.005, 1e-7, 4.9e-9, 5e-324, 123456789.123, 99999.999]) {
      expect(hasAtMostTwoDecimals(bad), String(bad)).toBe(false);
    }
    for (const ok of [-0, 0.01, 0.1, 10.1, 10.01, 300.25, 134_247_717.92, 999_999_999.99, 1_000_000_000.01, 1e21, -12.34]) expect(hasAtMostTwoDecimals(ok), String(ok)).toBe(true);
  });

  it('accepts every amount written with at most 2 decimals and reads it as its exact paise', () => {
    // Every paisa from ₹0 to ₹10,000, then samples (every paisa ending) up to the largest bid.
    const check = (paise: number) => {
      const text = `${Math.floor(paise / 100)}.${String(paise % 100).padStart(2, '0')}`;
      const rupees = Number(text); // what JSON.parse makes of the text a client sends
      if (!hasAtMostTwoDecimals(rupees) || toPaise(rupees) !== paise || toRupees(paise) !== rupees) expect.fail(`${text} → ${rupees}`);
    };
    for (let paise = 0; paise <= 1_000_000; paise++) check(paise);
    for (let paise = 1_000_000; paise <= 100_000_000_000; paise += 999_983) check(paise);
    check(100_000_000_000);
  });

  it('converts to integer paise and back exactly', () => {
    expect(toPaise(1.15)).toBe(115);
    expect(toPaise(0.29)).toBe(29);
    expect(toPaise(99999.99)).toBe(9_999_999);
    expect(toRupees(30050)).toBe(300.5);
    expect(toRupees(toPaise(1234.56))).toBe(1234.56);
  });

  it('sums rupee amounts exactly, in paise', () => {
    expect(sumRupees([])).toBe(0);
    expect(sumRupees([0.1, 0.2])).toBe(0.3);
    expect(sumRupees([1.15, 0.29, 300.5])).toBe(301.94);
    expect(sumRupees(new Set([99999.99, 0.01]))).toBe(100000);
  });

  it('formats amounts with Indian grouping', () => {
    expect(formatRupees(1000)).toBe('₹1,000');
    expect(formatRupees(100000)).toBe('₹1,00,000');
    expect(formatRupees(300.5)).toBe('₹300.50');
    expect(formatRupees(300.05)).toBe('₹300.05');
    expect(formatRupees(0.5)).toBe('₹0.50');
    expect(formatRupees(10000000.25)).toBe('₹1,00,00,000.25');
    expect(formatRupees(1234567.9)).toBe('₹12,34,567.90');
    expect(formatRupees(-12.5)).toBe('-₹12.50');
    expect(formatRupees(0)).toBe('₹0');
  });

  it('writes plain numbers for spreadsheets: no symbol, no grouping, two decimals or none', () => {
    expect(formatRupees(100000, { plain: true })).toBe('100000');
    expect(formatRupees(300.5, { plain: true })).toBe('300.50');
    expect(formatRupees(-12.05, { plain: true })).toBe('-12.05');
    expect(formatRupees(1234567.9, { plain: true })).toBe('1234567.90');
  });
});
