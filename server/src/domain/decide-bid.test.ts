import { describe, expect, it } from 'vitest';
import type { Applied, Hold } from '../db/index.js';
import { decideBid, type BidState } from './decide-bid.js';

const NOW = 1_000_000;
type Leader = Omit<Hold, 'maxAmount' | 'held'> & { maxAmount?: number | null };
interface Knobs { balance?: number; active?: boolean; registered?: boolean; sold?: boolean; settled?: boolean; endsAt?: number; leader?: Leader | null }
const state = (k: Knobs = {}): BidState => ({
  bidder: { id: 1, username: 'asha', status: k.active === false ? 'inactive' : 'active', balance: k.balance ?? 100_000 },
  registered: k.registered ?? true,
  product: { id: 'P1', name: 'Vase', status: k.sold ? 'sold' : 'available', bidCount: 3, version: 5, startingPrice: 0, reservePrice: null, buyNowPrice: null, gstPct: 0 },
  auction: {
    id: 'A1', name: 'Spring', validUntil: k.endsAt ?? NOW + 60_000, originalValidUntil: k.endsAt ?? NOW + 60_000, settledAt: k.settled ? NOW - 1 : null, createdBy: 7,
    incrementRule: 'flat', incrementAmount: 100, incrementTiers: null, softCloseS: 0, maxExtensionS: 3600, buyerPremiumBp: 0, premiumGstPct: 18,
  },
  leader: k.leader ? { maxAmount: null, username: 'ravi', ...k.leader, held: k.leader.maxAmount ?? k.leader.amount } : null,
});
const plain = (amount: number) => ({ amount, max: null });
const refusal = (k: Knobs, amount: number) => {
  const d = decideBid(state(k), plain(amount), NOW);
  return d.ok ? null : { code: d.code, message: d.message };
};
const accepted = (k: Knobs, amount: number) => {
  const d = decideBid(state(k), plain(amount), NOW);
  if (!d.ok) throw new Error(`refused: ${d.code}`);
  return d;
};

describe('decideBid', () => {
  it('accepts a first bid of at least ₹1 the bidder can pay: one new leading bid, its hold, the count', () => {
    const d = accepted({}, 100);
    expect(d.changes).toEqual({
      newBid: { userId: 1, productId: 'P1', auctionId: 'A1', amount: 100, maxAmount: null, held: 100, status: 'success', reason: null },
      moves: [{ userId: 1, type: 'bid', amount: 100, bidId: 'new', productId: 'P1', notes: 'Bid on Vase' }],
      products: [{ id: 'P1', set: { bidCount: 4, version: 6 } }],
    });
    expect(refusal({}, 99)?.code).toBe('BID_TOO_LOW');
  });

  it('needs ₹1 more than the highest, with the spec wording at or below it', () => {
    const leader = { bidId: 9, userId: 2, amount: 40_000 };
    expect(refusal({ leader }, 40_000)).toEqual({ code: 'BID_TOO_LOW', message: 'Bid must be higher than current highest bid of ₹400' });
    expect(refusal({ leader }, 40_050)?.message).toBe('Bid must be at least ₹401');
    expect(accepted({ leader }, 40_100).highest).toBe(40_100);
  });

  it('releases the old leader first: its refund precedes the new hold, and it is told it was outbid', () => {
    const leader = { bidId: 9, userId: 2, amount: 40_000 };
    const d = accepted({ leader }, 50_000);
    expect(d.changes.bids).toEqual([{ id: 9, status: 'outbid' }]);
    expect(d.changes.moves!.map((m) => [m.userId, m.type, m.amount, m.bidId])).toEqual([[2, 'refund', 40_000, 9], [1, 'bid', 50_000, 'new']]);
    const applied: Applied = { newBid: { id: 10 } as Applied['newBid'], transactions: [], balances: new Map([[2, 90_000], [1, 50_000]]), notices: [] };
    expect(d.events(applied).map((e) => e.type)).toEqual(['bid:placed', 'bid:outbid', 'wallet:updated', 'wallet:updated']);
    expect(d.events(applied)[0]).toMatchObject({ bidId: 10, highest: 50_000, bidCount: 4, version: 6, bidder: 'asha', ownerId: 7 });
  });

  it('lets a leader raise using their own hold, and nobody else; a raise tells nobody they were outbid', () => {
    const own = { bidId: 9, userId: 1, amount: 60_000 };
    const raise = accepted({ balance: 50_000, leader: own }, 110_000);
    expect(raise.changes.moves![0]!.notes).toMatch(/you raised your bid/);
    expect(raise.events({ newBid: { id: 10 } as Applied['newBid'], transactions: [], balances: new Map(), notices: [] }).map((e) => e.type)).toEqual(['bid:placed']);
    expect(refusal({ balance: 50_000, leader: own }, 110_100)?.code).toBe('INSUFFICIENT_FUNDS');
    const other = { ...own, userId: 2 };
    expect(refusal({ balance: 50_000, leader: other }, 60_100)?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('refuses in a fixed order: inactive account, sold, settled, ended, not registered, funds', () => {
    expect(refusal({ active: false, sold: true }, 100)?.code).toBe('ACCOUNT_INACTIVE');
    expect(refusal({ sold: true, settled: true }, 100)?.code).toBe('PRODUCT_SOLD');
    expect(refusal({ settled: true, endsAt: NOW }, 100)?.code).toBe('AUCTION_SETTLED');
    expect(refusal({ endsAt: NOW, registered: false }, 100)?.code).toBe('AUCTION_ENDED');
    expect(refusal({ registered: false, balance: 0 }, 100)?.code).toBe('NOT_REGISTERED');
    expect(refusal({ balance: 0 }, 100)?.code).toBe('INSUFFICIENT_FUNDS');
  });

  it('treats the end instant as ended', () => {
    expect(refusal({ endsAt: NOW }, 100)?.code).toBe('AUCTION_ENDED');
    expect(decideBid(state({ endsAt: NOW + 1 }), plain(100), NOW).ok).toBe(true);
  });
});

describe('decideBid: a leader never bids against itself; the bid count counts automatic raises', () => {
  it('a plain bid above the leader’s own maximum raises the maximum: the difference held, no new bid, the price and the count stay', () => {
    const own = { bidId: 9, userId: 1, amount: 30_100, maxAmount: 500_000 };
    const d = accepted({ balance: 100_000, leader: own }, 600_000);
    expect(d).toMatchObject({ highest: 30_100, leading: true, max: 600_000 });
    expect(d.changes.newBid).toBeUndefined();
    expect(d.changes.bids).toEqual([{ id: 9, status: 'success', maxAmount: 600_000, held: 600_000 }]);
    expect(d.changes.moves!.map((m) => [m.type, m.amount])).toEqual([['bid', 100_000]]);
    expect(d.changes.products).toEqual([{ id: 'P1', set: { version: 6 } }]);
  });

  it('a bid answered by the leader’s maximum counts twice (the bid and the automatic raise); beating a maximum below its top too', () => {
    const proxy = { bidId: 9, userId: 2, amount: 10_000, maxAmount: 500_000 };
    expect(accepted({ leader: proxy }, 30_000).changes.products).toEqual([{ id: 'P1', set: { bidCount: 5, version: 6 } }]);
    expect(accepted({ leader: proxy, balance: 1_000_000 }, 600_000).changes.products).toEqual([{ id: 'P1', set: { bidCount: 5, version: 6 } }]);
  });

  describe('with a buyer’s premium and GST (docs/money.md#all-in-prices)', () => {
    // 12.5 % premium, 18 % GST on it, 5 % GST on the lot: ₹1,000 costs ₹1,197.50 in all.
    const terms = (k: Knobs): BidState => {
      const s = state(k);
      return { ...s, product: { ...s.product, gstPct: 5 }, auction: { ...s.auction, buyerPremiumBp: 1250, premiumGstPct: 18 } };
    };

    it('holds the all-in price of the bid, and refuses a bidder who can pay the bid but not all of it', () => {
      const d = decideBid(terms({ balance: 119_750 }), plain(100_000), NOW);
      if (!d.ok) throw new Error(d.code);
      expect(d.changes.newBid).toMatchObject({ amount: 100_000, held: 119_750, status: 'success' });
      expect(d.changes.moves).toEqual([{ userId: 1, type: 'bid', amount: 119_750, bidId: 'new', productId: 'P1', notes: 'Bid on Vase; ₹1,197.50 held in all (premium and GST)' }]);
      // The next bid's all-in price: ₹1,001 × 1.1975, each part rounded half up.
      expect(d).toMatchObject({ minNext: 100_100, minNextAllIn: 119_870 });
      const short = decideBid(terms({ balance: 119_749 }), plain(100_000), NOW);
      expect(short).toMatchObject({ ok: false, code: 'INSUFFICIENT_FUNDS', message: 'Insufficient wallet balance: ₹1,197.49 available for this bid' });
    });

    it('a maximum holds the all-in price of the maximum; raising it holds the difference of the two', () => {
      const d = decideBid(terms({ balance: 1_000_000 }), { amount: null, max: 200_000 }, NOW);
      if (!d.ok) throw new Error(d.code);
      expect(d.changes.newBid).toMatchObject({ amount: 100, maxAmount: 200_000, held: 239_500 });
      const own = { bidId: 9, userId: 1, amount: 100, maxAmount: 200_000 };
      const s = terms({ balance: 100_000, leader: own });
      const raised = decideBid({ ...s, leader: { ...s.leader!, held: 239_500 } }, { amount: null, max: 250_000 }, NOW);
      if (!raised.ok) throw new Error(raised.code);
      expect(raised.changes.bids).toEqual([{ id: 9, status: 'success', maxAmount: 250_000, held: 299_375 }]);
      expect(raised.changes.moves!.map((m) => m.amount)).toEqual([299_375 - 239_500]);
    });

    it('an outbid leader gets back exactly what their lead held', () => {
      const s = terms({ balance: 1_000_000, leader: { bidId: 9, userId: 2, amount: 100_000 } });
      const d = decideBid({ ...s, leader: { ...s.leader!, held: 119_750 } }, plain(100_100), NOW);
      if (!d.ok) throw new Error(d.code);
      expect(d.changes.moves!.map((m) => [m.userId, m.type, m.amount])).toEqual([[2, 'refund', 119_750], [1, 'bid', 119_870]]);
    });
  });
});
