import { describe, expect, it } from 'vitest';
import { bidTooLow, minimumBid } from './bidding.js';

describe('the too-low-bid rule', () => {
  it('the minimum bid is the highest plus ₹1, exact to the paisa', () => {
    expect(minimumBid(0)).toBe(1);
    expect(minimumBid(300.5)).toBe(301.5);
    expect(minimumBid(0.29)).toBe(1.29);
    expect(minimumBid(99999.99)).toBe(100000.99);
  });

  it('refuses a bid not above the highest, in the words the bidder reads', () => {
    expect(bidTooLow(1000, 1000)).toBe('Bid must be higher than current highest bid of ₹1,000');
    expect(bidTooLow(0.5, 1000)).toBe('Bid must be higher than current highest bid of ₹1,000');
  });

  it('refuses a bid above the highest but under the increment, naming the minimum', () => {
    expect(bidTooLow(1000.5, 1000)).toBe('Bid must be at least ₹1,001');
    expect(bidTooLow(301.49, 300.5)).toBe('Bid must be at least ₹301.50');
  });

  it('accepts the minimum and anything above it', () => {
    expect(bidTooLow(1001, 1000)).toBeNull();
    expect(bidTooLow(301.5, 300.5)).toBeNull();
    expect(bidTooLow(1, 0)).toBeNull();
    expect(bidTooLow(0.99, 0)).toBe('Bid must be at least ₹1');
  });
});
