import { describe, expect, it } from 'vitest';
import { formatRupees, hasAtMostTwoDecimals, toPaise, toRupees } from './money.js';

describe('money', () => {
  it('accepts at most two decimals despite floating point', () => {
    for (const ok of [0, 1, 1.1, 1.15, 0.29, 300.5, 99999.99, 1_000_000_000]) expect(hasAtMostTwoDecimals(ok), String(ok)).toBe(true);
    for (const bad of [1.155, 0.001, Number.NaN, Infinity, -Infinity]) expect(hasAtMostTwoDecimals(bad), String(bad)).toBe(false);
  });

  it('converts to integer paise and back exactly', () => {
    expect(toPaise(1.15)).toBe(115);
    expect(toPaise(0.29)).toBe(29);
    expect(toPaise(99999.99)).toBe(9_999_999);
    expect(toRupees(30050)).toBe(300.5);
    expect(toRupees(toPaise(1234.56))).toBe(1234.56);
  });

  it('formats amounts with Indian grouping', () => {
    expect(formatRupees(1000)).toBe('₹1,000');
    expect(formatRupees(100000)).toBe('₹1,00,000');
    expect(formatRupees(300.5)).toBe('₹300.5');
    expect(formatRupees(10000000.25)).toBe('₹1,00,00,000.25');
  });
});
