import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allIn, LOT_GST_RATES, maxPriceWithin, mulDivHalfUp } from './all-in.js';

describe('allIn', () => {
  it('is the price itself with no premium and no GST', () => {
    expect(allIn(123_45, { premiumBp: 0, premiumGstPct: 18, lotGstPct: 0 })).toEqual({ price: 123_45, premium: 0, premiumGst: 0, lotGst: 0, total: 123_45 });
  });

  it('adds the premium, GST on the premium and GST on the lot, each rounded half up in paise', () => {
    // ₹1,000 at 12.5 % premium, 18 % GST on it, 5 % GST on the lot: 125 + 22.50 + 50.
    expect(allIn(1_000_00, { premiumBp: 1250, premiumGstPct: 18, lotGstPct: 5 })).toEqual({ price: 1_000_00, premium: 125_00, premiumGst: 22_50, lotGst: 50_00, total: 1_197_50 });
    // ₹0.99 at 15 %: a premium of 14.85 paise is 15; GST 18 % of 15 paise is 2.7, so 3.
    expect(allIn(99, { premiumBp: 1500, premiumGstPct: 18, lotGstPct: 0 })).toMatchObject({ premium: 15, premiumGst: 3, total: 117 });
    // Exactly half a paisa rounds up: 1 paisa at 50 % is 0.5.
    expect(allIn(1, { premiumBp: 5000, premiumGstPct: 0, lotGstPct: 0 }).premium).toBe(1);
  });

  it('never falls below the price, rises with it, and stays exact at the largest bid (₹1,00,00,00,000)', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 100_000_000_000 }), fc.integer({ min: 0, max: 5000 }), fc.constantFrom(...LOT_GST_RATES), fc.integer({ min: 0, max: 28 }),
      (price, premiumBp, lotGstPct, premiumGstPct) => {
        const a = allIn(price, { premiumBp, premiumGstPct, lotGstPct });
        const b = allIn(price + 1, { premiumBp, premiumGstPct, lotGstPct });
        expect(Number.isSafeInteger(a.total)).toBe(true);
        expect(a.total).toBeGreaterThanOrEqual(price);
        expect(b.total).toBeGreaterThan(a.total);
        // The same rounding in exact integers (BigInt): no floating-point error at any size.
        const exact = (x: number, y: number, z: number) => Number((2n * BigInt(x) * BigInt(y) + BigInt(z)) / (2n * BigInt(z)));
        expect(a.premium).toBe(exact(price, premiumBp, 10_000));
        expect(a.lotGst).toBe(exact(price, lotGstPct, 100));
        expect(a.premiumGst).toBe(exact(a.premium, premiumGstPct, 100));
      },
    ));
  });

  it('rounds half up: a half goes up, less than a half goes down', () => {
    expect(mulDivHalfUp(2675, 1, 10)).toBe(268);
    expect(mulDivHalfUp(2674, 1, 10)).toBe(267);
    expect(mulDivHalfUp(5, 1, 10)).toBe(1);
    expect(mulDivHalfUp(4, 1, 10)).toBe(0);
  });

  it('gives, for any budget, the highest price whose all-in price fits in it', () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 10_000_000_000 }), fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 28 }), fc.constantFrom(...LOT_GST_RATES),
      (budget, premiumBp, premiumGstPct, lotGstPct) => {
        const t = { premiumBp, premiumGstPct, lotGstPct };
        const price = maxPriceWithin(budget, t);
        if (budget > 0) expect(allIn(price, t).total).toBeLessThanOrEqual(budget);
        expect(allIn(price + 1, t).total).toBeGreaterThan(budget);
      },
    ));
    expect(maxPriceWithin(1_000_000, { premiumBp: 0, premiumGstPct: 18, lotGstPct: 0 })).toBe(1_000_000);
    // ₹10,000 at 10 % premium + 18 % GST on it and 5 % on the lot: ₹8,561.64 costs ₹9,999.99 in all.
    expect(maxPriceWithin(1_000_000, { premiumBp: 1000, premiumGstPct: 18, lotGstPct: 5 })).toBe(856_164);
    expect(allIn(856_164, { premiumBp: 1000, premiumGstPct: 18, lotGstPct: 5 }).total).toBe(999_999);
  });
});
