import { FLAT_STEPS } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import type { Hold } from '../db/index.js';
import { nextLeader } from './reprice.js';

const flat = { steps: FLAT_STEPS, startingPrice: 0, reservePrice: null, allIn: { premiumBp: 0, premiumGstPct: 18, lotGstPct: 0 } };
const rich = () => 10_000_000;
const bid = (bidId: number, userId: number, amount: number, maxAmount: number | null = null): Hold => ({ bidId, userId, amount, maxAmount, held: maxAmount ?? amount });

describe('nextLeader (docs/bidding.md#cancelling-a-bid)', () => {
  it('a maximum leads as a maximum, one step above the runner-up', () => {
    expect(nextLeader([bid(2, 20, 500_000, 500_000), bid(1, 10, 400_000)], rich, flat))
      .toEqual({ hold: bid(2, 20, 400_100, 500_000), held: 500_000, lowered: false });
  });

  it('a plain bid leads at its amount; equal tops: the earliest', () => {
    expect(nextLeader([bid(3, 30, 500_000), bid(2, 20, 500_000, 500_000)], rich, flat)?.hold).toEqual(bid(2, 20, 500_000, 500_000));
    expect(nextLeader([bid(3, 30, 700_000), bid(2, 20, 500_000, 500_000)], rich, flat)?.hold).toEqual(bid(3, 30, 700_000));
  });

  it('alone, at the opening price; lifted to the reserve its maximum reaches', () => {
    expect(nextLeader([bid(1, 10, 5_000, 900_000)], rich, { ...flat, startingPrice: 20_000 })?.hold.amount).toBe(20_000);
    expect(nextLeader([bid(1, 10, 5_000, 900_000)], rich, { ...flat, reservePrice: 800_000 })?.hold.amount).toBe(800_000);
  });

  it('a bidder’s own other bids are not competition', () => {
    expect(nextLeader([bid(1, 10, 300_000), bid(2, 10, 500_000, 500_000)], rich, flat)?.hold).toEqual(bid(2, 10, 100, 500_000));
  });

  it('stands at what the wallet holds: a maximum lowered, a plain bid skipped', () => {
    const balances = new Map([[10, 150_000], [20, 50_000], [30, 1_000_000]]);
    const found = nextLeader([bid(1, 10, 500_000, 500_000), bid(2, 20, 100_000), bid(3, 30, 80_000)], (u) => balances.get(u) ?? 0, flat);
    expect(found).toEqual({ hold: bid(1, 10, 80_100, 150_000), held: 150_000, lowered: true });
  });

  it('ladder steps: one step above the runner-up at its level, capped at the maximum', () => {
    const ladder = { ...flat, steps: { rule: 'ladder' as const, amount: 100, tiers: [] } };
    expect(nextLeader([bid(2, 20, 600_000, 600_000), bid(1, 10, 200_000)], rich, ladder)?.hold.amount).toBe(205_000);
    expect(nextLeader([bid(2, 20, 202_000, 202_000), bid(1, 10, 200_000)], rich, ladder)?.hold.amount).toBe(202_000);
  });

  it('nothing left: null', () => {
    expect(nextLeader([], rich, flat)).toBeNull();
  });
});
