import { describe, expect, it } from 'vitest';
import { FLAT_STEPS, bidTooLowFor, incrementStep, minNextBid, nextBids, stepsInWords, tiersProblem, type LotPricing, type Steps } from './bidding-rules.js';
import { auctionSteps } from './schemas/catalogue.js';

const LADDER_STEPS: Steps = { rule: 'ladder', amount: 100, tiers: [] };
const flat = (rupees: number): Steps => ({ rule: 'flat', amount: rupees * 100, tiers: [] });
/** Custom: ₹10 below ₹1,000, ₹50 below ₹5,000, then ₹200. */
const CUSTOM: Steps = { rule: 'custom', amount: 100, tiers: [{ below: 1_000_00, step: 10_00 }, { below: 5_000_00, step: 50_00 }, { below: null, step: 200_00 }] };
const lot = (p: Partial<LotPricing>): LotPricing => ({ steps: FLAT_STEPS, startingPrice: 0, highest: 0, hasBid: false, ...p });

describe('increment rules', () => {
  it('flat: ₹1 at every price', () => {
    expect(incrementStep(FLAT_STEPS, 0)).toBe(100);
    expect(incrementStep(FLAT_STEPS, 5_000_000_00)).toBe(100);
  });

  it('ladder: the step grows with the highest bid, changing exactly at each threshold', () => {
    const cases: [number, number][] = [
      [0, 10], [999.99, 10], [1000, 50], [4999.99, 50], [5000, 100], [9999.99, 100], [10_000, 250],
      [49_999.99, 250], [50_000, 500], [99_999.99, 500], [100_000, 1000], [10_000_000, 1000],
    ];
    for (const [rupees, step] of cases) expect(incrementStep(LADDER_STEPS, Math.round(rupees * 100)), `at ₹${rupees}`).toBe(step * 100);
  });

  it('the first bid: the starting price, never below ₹1', () => {
    expect(minNextBid(lot({}))).toBe(100);
    expect(minNextBid(lot({ startingPrice: 50 }))).toBe(100);
    expect(minNextBid(lot({ startingPrice: 2500_00, steps: LADDER_STEPS }))).toBe(2500_00);
  });

  it('later bids: one step above the highest', () => {
    expect(minNextBid(lot({ hasBid: true, highest: 560_00 }))).toBe(561_00);
    expect(minNextBid(lot({ hasBid: true, highest: 560_00, steps: LADDER_STEPS }))).toBe(570_00);
    expect(minNextBid(lot({ hasBid: true, highest: 2470_00, steps: LADDER_STEPS }))).toBe(2520_00);
    expect(minNextBid(lot({ hasBid: true, highest: 99_990_00, steps: LADDER_STEPS }))).toBe(1_00_490_00);
  });

  it('the next three amounts follow the ladder across a threshold', () => {
    expect(nextBids(lot({ hasBid: true, highest: 980_00, steps: LADDER_STEPS }), 3)).toEqual([990_00, 1000_00, 1050_00]);
    expect(nextBids(lot({ startingPrice: 10_00 }), 3)).toEqual([10_00, 11_00, 12_00]);
  });

  it('too low: the spec sentence up to the highest, then "at least" the minimum', () => {
    const l = lot({ hasBid: true, highest: 1000_00, steps: LADDER_STEPS });
    expect(bidTooLowFor(1000_00, l)).toBe('Bid must be higher than current highest bid of ₹1,000');
    expect(bidTooLowFor(1049_99, l)).toBe('Bid must be at least ₹1,050');
    expect(bidTooLowFor(1050_00, l)).toBeNull();
    expect(bidTooLowFor(99_00, lot({ startingPrice: 100_00 }))).toBe('Bid must be at least ₹100');
    expect(bidTooLowFor(100_00, lot({ startingPrice: 100_00 }))).toBeNull();
  });

  it('flat with the seller’s amount: that step at every price', () => {
    expect(incrementStep(flat(50), 0)).toBe(50_00);
    expect(incrementStep(flat(50), 1_00_000_00)).toBe(50_00);
    expect(minNextBid(lot({ steps: flat(50), hasBid: true, highest: 1_200_00 }))).toBe(1_250_00);
    expect(nextBids(lot({ steps: flat(50), startingPrice: 500_00 }), 3)).toEqual([500_00, 550_00, 600_00]);
  });

  it('custom tiers: each tier up to its "below", the last one for every price above', () => {
    const cases: [number, number][] = [[0, 10], [999.99, 10], [1000, 50], [4999.99, 50], [5000, 200], [1_00_00_000, 200]];
    for (const [rupees, step] of cases) expect(incrementStep(CUSTOM, Math.round(rupees * 100)), `at ₹${rupees}`).toBe(step * 100);
    expect(nextBids(lot({ steps: CUSTOM, hasBid: true, highest: 980_00 }), 3)).toEqual([990_00, 1000_00, 1050_00]);
    expect(bidTooLowFor(5_100_00, lot({ steps: CUSTOM, hasBid: true, highest: 5_000_00 }))).toBe('Bid must be at least ₹5,200');
  });

  it('tiers are checked: at least one, rising, the last without "below", steps ₹1 to ₹1,00,000', () => {
    expect(tiersProblem(CUSTOM.tiers)).toBeNull();
    expect(tiersProblem([{ step: 5_00 }])).toBeNull();
    expect(tiersProblem([])).toMatch(/at least one tier/);
    expect(tiersProblem([{ below: 5_000_00, step: 50_00 }, { below: 1_000_00, step: 10_00 }, { below: null, step: 100_00 }]))
      .toBe('increment_tiers: "below" amounts must go up from tier to tier, but tier 2 (₹1,000) is not above tier 1 (₹5,000)');
    expect(tiersProblem([{ below: 1_000_00, step: 10_00 }, { below: 2_000_00, step: 50_00 }]))
      .toBe('increment_tiers: the last tier must have no "below" amount, so that it covers every higher price');
    expect(tiersProblem([{ below: null, step: 10_00 }, { step: 50_00 }])).toBe('increment_tiers: tier 1 needs a "below" amount (only the last tier goes without one)');
    expect(tiersProblem([{ step: 50 }])).toBe('increment_tiers: the step of tier 1 must be from ₹1 to ₹1,00,000');
  });

  it('the steps in words', () => {
    expect(stepsInWords(flat(50))).toBe('₹50 steps');
    expect(stepsInWords(FLAT_STEPS)).toBe('₹1 steps');
    expect(stepsInWords(CUSTOM)).toBe('₹10 below ₹1,000, ₹50 below ₹5,000, then ₹200');
    expect(stepsInWords({ rule: 'custom', amount: 100, tiers: [{ below: null, step: 25_00 }] })).toBe('₹25 steps');
    expect(stepsInWords(LADDER_STEPS)).toMatch(/^₹10 below ₹1,000, .*then ₹1,000$/);
  });

  it('an auction shape (rupees) gives its steps in paise; fields an old server leaves out mean ₹1 steps', () => {
    expect(auctionSteps({ increment_rule: 'custom', increment_amount: 1, increment_tiers: [{ below: 1000, step: 10 }, { below: null, step: 0.5 }] }))
      .toEqual({ rule: 'custom', amount: 100, tiers: [{ below: 1_000_00, step: 10_00 }, { below: null, step: 50 }] });
    expect(auctionSteps({ increment_rule: 'flat' })).toEqual(FLAT_STEPS);
  });
});
