import { describe, expect, it } from 'vitest';
import { gstinCheckChar, gstinProblem, maskAccountNumber } from './gst.js';

describe('GSTIN', () => {
  it('accepts real GSTINs and computes their check character', () => {
    for (const g of ['27AAPFU0939F1ZV', '29AAGCB7383J1Z4']) {
      expect(gstinCheckChar(g.slice(0, 14))).toBe(g[14]);
      expect(gstinProblem(g)).toBeNull();
    }
    expect(gstinProblem('27AAPFU0939F1ZV', '27')).toBeNull();
  });

  it('names what is wrong: a typo (the check character), the shape, an unknown state, another state than the address', () => {
    expect(gstinProblem('27AAPFU0939F1ZW')).toMatch(/check character/);
    expect(gstinProblem('27AAPFU0939F1Z')).toMatch(/15 characters/);
    expect(gstinProblem('27aapfu0939f1zv')).toMatch(/15 characters/);
    expect(gstinProblem('99AAPFU0939F1ZV')).toMatch(/state code/);
    expect(gstinProblem('27AAPFU0939F1ZV', '29')).toMatch(/state code of the address/);
    // One character changed anywhere in the first fourteen is caught.
    const g = '29AAGCB7383J1Z4';
    for (let i = 2; i < 14; i++) {
      const c = g[i] === 'A' ? 'B' : g[i] === '1' ? '2' : /[0-9]/.test(g[i]!) ? String((Number(g[i]) + 1) % 10) : 'A';
      const typo = g.slice(0, i) + c + g.slice(i + 1);
      if (/^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/.test(typo)) expect(gstinProblem(typo), typo).not.toBeNull();
    }
  });

  it('masks an account number to its last four digits', () => {
    expect(maskAccountNumber('001234567890')).toBe('••7890');
  });
});
