import { describe, expect, it } from 'vitest';
import { decideBid, type BidState } from './decide-bid.js';

const NOW = 1_000_000;
const base: BidState = {
  bidderId: 1, bidderActive: true, balance: 100_000, registered: true, productSold: false, auctionSettled: false,
  auctionEndsAt: NOW + 60_000, leader: null,
};
const refusal = (s: Partial<BidState>, amount: number) => {
  const d = decideBid({ ...base, ...s }, amount, NOW);
  return d.accept ? null : { code: d.code, message: d.message };
};

describe('decideBid', () => {
  it('accepts a first bid of at least ₹1 the bidder can pay', () => {
    expect(decideBid(base, 100, NOW)).toEqual({ accept: true, release: null });
    expect(refusal({}, 99)?.code).toBe('BID_TOO_LOW');
  });

  it('needs ₹1 more than the highest, with the spec wording at or below it', () => {
    const leader = { bidId: 9, userId: 2, amount: 40_000 };
    expect(refusal({ leader }, 40_000)).toEqual({ code: 'BID_TOO_LOW', message: 'Bid must be higher than current highest bid of ₹400' });
    expect(refusal({ leader }, 40_050)?.message).toBe('Bid must be at least ₹401: ₹1 more than the current highest bid of ₹400');
    expect(decideBid({ ...base, leader }, 40_100, NOW)).toEqual({ accept: true, release: leader });
  });

  it('lets a leader raise using their own hold, and nobody else', () => {
    const own = { bidId: 9, userId: 1, amount: 60_000 };
    expect(decideBid({ ...base, balance: 50_000, leader: own }, 110_000, NOW).accept).toBe(true);
    expect(refusal({ balance: 50_000, leader: own }, 110_100)?.code).toBe('INSUFFICIENT_FUNDS');
    const other = { ...own, userId: 2 };
    expect(refusal({ balance: 50_000, leader: other }, 60_100)?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('refuses in the order of DESIGN §4', () => {
    expect(refusal({ bidderActive: false, productSold: true }, 100)?.code).toBe('ACCOUNT_INACTIVE');
    expect(refusal({ productSold: true, auctionSettled: true }, 100)?.code).toBe('PRODUCT_SOLD');
    expect(refusal({ auctionSettled: true, auctionEndsAt: NOW }, 100)?.code).toBe('AUCTION_SETTLED');
    expect(refusal({ auctionEndsAt: NOW, registered: false }, 100)?.code).toBe('AUCTION_ENDED');
    expect(refusal({ registered: false, balance: 0 }, 100)?.code).toBe('NOT_REGISTERED');
    expect(refusal({ balance: 0 }, 100)?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('treats the end instant as ended', () => {
    expect(refusal({ auctionEndsAt: NOW }, 100)?.code).toBe('AUCTION_ENDED');
    expect(decideBid({ ...base, auctionEndsAt: NOW + 1 }, 100, NOW).accept).toBe(true);
  });
});
