import { describe, expect, it } from 'vitest';
import { bidTooLowFor, incrementStep, minNextBid, nextBids, type LotPricing } from './bidding-rules.js';

const lot = (p: Partial<LotPricing>): LotPricing => ({ rule: 'flat', startingPrice: 0, highest: 0, hasBid: false, ...p });

describe('increment rules', () => {
  it('flat: ₹1 at every price', () => {
    expect(incrementStep('flat', 0)).toBe(100);
    expect(incrementStep('flat', 5_000_000_00)).toBe(100);
  });

  it('ladder: the step grows with the highest bid, changing exactly at each threshold', () => {
    const cases: [number, number][] = [
      [0, 10], [999.99, 10], [1000, 50], [4999.99, 50], [5000, 100], [9999.99, 100], [10_000, 250],
      [49_999.99, 250], [50_000, 500], [99_999.99, 500], [100_000, 1000], [10_000_000, 1000],
    ];
    for (const [rupees, step] of cases) expect(incrementStep('ladder', Math.round(rupees * 100)), `at ₹${rupees}`).toBe(step * 100);
  });

  it('the first bid: the starting price, never below ₹1', () => {
    expect(minNextBid(lot({}))).toBe(100);
    expect(minNextBid(lot({ startingPrice: 50 }))).toBe(100);
    expect(minNextBid(lot({ startingPrice: 2500_00, rule: 'ladder' }))).toBe(2500_00);
  });

  it('later bids: one step above the highest', () => {
    expect(minNextBid(lot({ hasBid: true, highest: 560_00 }))).toBe(561_00);
    expect(minNextBid(lot({ hasBid: true, highest: 560_00, rule: 'ladder' }))).toBe(570_00);
    expect(minNextBid(lot({ hasBid: true, highest: 2470_00, rule: 'ladder' }))).toBe(2520_00);
    expect(minNextBid(lot({ hasBid: true, highest: 99_990_00, rule: 'ladder' }))).toBe(1_00_490_00);
  });

  it('the next three amounts follow the ladder across a threshold', () => {
    expect(nextBids(lot({ hasBid: true, highest: 980_00, rule: 'ladder' }), 3)).toEqual([990_00, 1000_00, 1050_00]);
    expect(nextBids(lot({ startingPrice: 10_00 }), 3)).toEqual([10_00, 11_00, 12_00]);
  });

  it('too low: the spec sentence up to the highest, then "at least" the minimum', () => {
    const l = lot({ hasBid: true, highest: 1000_00, rule: 'ladder' });
    expect(bidTooLowFor(1000_00, l)).toBe('Bid must be higher than current highest bid of ₹1,000');
    expect(bidTooLowFor(1049_99, l)).toBe('Bid must be at least ₹1,050');
    expect(bidTooLowFor(1050_00, l)).toBeNull();
    expect(bidTooLowFor(99_00, lot({ startingPrice: 100_00 }))).toBe('Bid must be at least ₹100');
    expect(bidTooLowFor(100_00, lot({ startingPrice: 100_00 }))).toBeNull();
  });
});
