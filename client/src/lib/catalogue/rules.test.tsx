import type { Product } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import { makeAuction, makeProduct } from '../../features/auctions/test/fixtures';
import { bidAction, browseView, checkBid, filterAuctions, quickBids, reserveNote, softCloseText, standingOf, type StepFields } from './rules';

const FLAT: StepFields = { increment_rule: 'flat', increment_amount: 1, increment_tiers: [] };
const LADDER: StepFields = { increment_rule: 'ladder' };

describe('browseView', () => {
  const NOW = Date.parse('2026-11-24T00:00:00.000Z');
  const at = (h: number) => new Date(NOW + h * 3_600_000).toISOString();
  const list = [
    makeAuction({ id: 'W', name: 'Week', valid_until: at(7 * 24) }),
    makeAuction({ id: 'H', name: 'Hour', valid_until: at(1) }),
    makeAuction({ id: 'D', name: 'Day and a bit', valid_until: at(25) }),
    makeAuction({ id: 'X', name: 'Ended yesterday', valid_until: at(-24), status: 'ended' }),
    makeAuction({ id: 'Y', name: 'Ended an hour ago', valid_until: at(-1), status: 'settled' }),
    makeAuction({ id: 'Z', name: 'Just ended by the clock', valid_until: at(0) }),
  ];
  const ids = (view: 'active' | 'ending' | 'ended') => browseView(list, view, NOW).map((a) => a.id);

  it('Active: open auctions only, ending soonest first', () => expect(ids('active')).toEqual(['H', 'D', 'W']));
  it('Ending soon: open and ending within 24 hours', () => expect(ids('ending')).toEqual(['H']));
  it('Ended: by the server or the clock, the most recent first', () => expect(ids('ended')).toEqual(['Z', 'Y', 'X']));
});

describe('filterAuctions', () => {
  const list = [
    makeAuction({ id: 'AUC-100', name: 'Vintage Watches', registered: true }),
    makeAuction({ id: 'ART-7', name: 'Modern Art', registered: false }),
    makeAuction({ id: 'MAP-3', name: 'Old maps of Bengal', registered: true }),
  ];
  const ids = (q: string, reg = false) => filterAuctions(list, q, reg).map((a) => a.id);

  it('matches names and ids, case-insensitive, anywhere in the text', () => {
    expect(ids('watch')).toEqual(['AUC-100']);
    expect(ids('ART')).toEqual(['ART-7']);
    expect(ids('art-')).toEqual(['ART-7']);
    expect(ids('map')).toEqual(['MAP-3']);
    expect(ids('o')).toEqual(['ART-7', 'MAP-3']);
    expect(ids('  ')).toEqual(['AUC-100', 'ART-7', 'MAP-3']);
    expect(ids('zzz')).toEqual([]);
  });

  it('keeps only registered auctions when asked, combined with the search', () => {
    expect(ids('', true)).toEqual(['AUC-100', 'MAP-3']);
    expect(ids('art', true)).toEqual([]);
  });
});

describe('checkBid', () => {
  const lot = (over: Partial<Product> = {}) => makeProduct(over);
  const bidOnly = (amount: string) => ({ amount, max: '' });

  it('refuses empty, non-numeric, zero, negative and over-precise amounts', () => {
    for (const raw of ['', '   ', 'abc', '0', '-5', '10.123', 'Infinity', '1e12']) {
      expect(checkBid(bidOnly(raw), lot(), FLAT)).toEqual({ ok: false, field: 'amount', error: 'Please enter a valid bid amount' });
    }
    expect(checkBid({ amount: '', max: 'abc' }, lot(), FLAT)).toEqual({ ok: false, field: 'max', error: 'Please enter a valid maximum bid' });
  });

  it('refuses amounts not above the highest bid, with the amount in en-IN format', () => {
    expect(checkBid(bidOnly('100000'), lot({ highest_bid: 100000 }), FLAT)).toMatchObject({ ok: false, error: 'Bid must be higher than current highest bid of ₹1,00,000' });
    expect(checkBid(bidOnly('50'), lot({ highest_bid: 300.5 }), FLAT)).toMatchObject({ ok: false, error: 'Bid must be higher than current highest bid of ₹300.50' });
  });

  it('asks for the next step of the auction’s rule, worded as the server words it', () => {
    expect(checkBid(bidOnly('1000.5'), lot({ highest_bid: 1000 }), FLAT)).toMatchObject({ ok: false, error: 'Bid must be at least ₹1,001' });
    expect(checkBid(bidOnly('1001'), lot({ highest_bid: 1000 }), LADDER)).toMatchObject({ ok: false, error: 'Bid must be at least ₹1,050' });
    expect(checkBid(bidOnly('1050'), lot({ highest_bid: 1000 }), LADDER)).toEqual({ ok: true, ask: { amount: 1050 } });
  });

  it('asks for the starting price before the first bid', () => {
    expect(checkBid(bidOnly('499'), lot({ starting_price: 500 }), LADDER)).toMatchObject({ ok: false, error: 'Bid must be at least ₹500' });
    expect(checkBid(bidOnly('500'), lot({ starting_price: 500 }), LADDER)).toEqual({ ok: true, ask: { amount: 500 } });
  });

  it('accepts the minimum and above', () => {
    expect(checkBid(bidOnly('1001'), lot({ highest_bid: 1000 }), FLAT)).toEqual({ ok: true, ask: { amount: 1001 } });
    expect(checkBid(bidOnly(' 1 '), lot(), FLAT)).toEqual({ ok: true, ask: { amount: 1 } });
    expect(checkBid(bidOnly('1234.56'), lot(), FLAT)).toEqual({ ok: true, ask: { amount: 1234.56 } });
  });

  it('sends a maximum with the bid, or alone (then the maximum must reach the minimum), never below the bid', () => {
    expect(checkBid({ amount: '1001', max: '5000' }, lot({ highest_bid: 1000 }), FLAT)).toEqual({ ok: true, ask: { amount: 1001, max: 5000 } });
    expect(checkBid({ amount: '', max: '5000' }, lot({ highest_bid: 1000 }), FLAT)).toEqual({ ok: true, ask: { max: 5000 } });
    expect(checkBid({ amount: '', max: '900' }, lot({ highest_bid: 1000 }), FLAT)).toEqual({ ok: false, field: 'max', error: 'Bid must be higher than current highest bid of ₹1,000' });
    expect(checkBid({ amount: '2000', max: '1500' }, lot({ highest_bid: 1000 }), FLAT)).toEqual({ ok: false, field: 'max', error: 'Your maximum bid must be at least your bid' });
  });

  it('lets the leader raise their maximum alone (above the current one), and refuses a bid their maximum already covers', () => {
    const leader = lot({ highest_bid: 1000, my_status: 'leading', my_max: 3000 });
    expect(checkBid({ amount: '1001', max: '4000' }, leader, FLAT)).toEqual({ ok: true, ask: { max: 4000 } });
    expect(checkBid({ amount: '1001', max: '3000' }, leader, FLAT)).toEqual({ ok: false, field: 'max', error: 'Your new maximum must be more than your current maximum of ₹3,000' });
    expect(checkBid(bidOnly('2500'), leader, FLAT)).toEqual({ ok: false, field: 'amount', error: 'Your maximum bid of ₹3,000 already covers this amount' });
    expect(checkBid(bidOnly('3500'), leader, FLAT)).toEqual({ ok: true, ask: { amount: 3500 } });
  });
});

describe('quickBids', () => {
  it('are the next three acceptable amounts, one step apart as the rule goes, across a ladder threshold', () => {
    expect(quickBids(makeProduct({ highest_bid: 980 }), LADDER)).toEqual([990, 1000, 1050]);
    expect(quickBids(makeProduct({ highest_bid: 980 }), FLAT)).toEqual([981, 982, 983]);
    expect(quickBids(makeProduct({ starting_price: 4950 }), LADDER)).toEqual([4950, 5000, 5100]);
    expect(quickBids(makeProduct(), FLAT)).toEqual([1, 2, 3]);
  });
});

describe('softCloseText', () => {
  it('explains soft close when it is on, in the largest exact unit', () => {
    expect(softCloseText({ soft_close_s: 120, max_extension_s: 3600 })).toBe('Bids in the last 2 min extend the auction (by up to 1 h in all)');
    expect(softCloseText({ soft_close_s: 90, max_extension_s: 600 })).toBe('Bids in the last 90 s extend the auction (by up to 10 min in all)');
    expect(softCloseText({ soft_close_s: 0, max_extension_s: 3600 })).toBeNull();
    expect(softCloseText({ soft_close_s: 120, max_extension_s: 0 })).toBeNull();
  });
});

describe('standingOf and reserveNote', () => {
  const p = (over: Partial<Product>) => makeProduct(over);
  it('words the caller’s own state on a lot; outbid on a lot that is over reads as lost', () => {
    expect(standingOf(p({ my_status: 'leading' }), false)).toEqual({ tone: 'leading', text: "You're the highest bidder" });
    expect(standingOf(p({ my_status: 'leading', my_max: 2500 }), false)?.text).toBe("You're the highest bidder · your maximum ₹2,500");
    expect(standingOf(p({ my_status: 'outbid' }), false)).toEqual({ tone: 'outbid', text: 'Outbid — bid again' });
    expect(standingOf(p({ my_status: 'outbid' }), true)).toEqual({ tone: 'lost', text: "You didn't win" });
    expect(standingOf(p({ my_status: 'outbid', status: 'sold' }), false)).toEqual({ tone: 'lost', text: "You didn't win" });
    expect(standingOf(p({ my_status: 'won' }), true)).toEqual({ tone: 'won', text: 'You won' });
    expect(standingOf(p({ my_status: 'lost' }), true)).toEqual({ tone: 'lost', text: "You didn't win" });
    expect(standingOf(p({ my_status: null }), false)).toBeNull();
  });

  it('tells the reserve: not met yet while open, not met once over, met; nothing without one or once sold', () => {
    expect(reserveNote(p({ reserve_met: false }), false)).toEqual({ met: false, text: 'Reserve not met yet' });
    expect(reserveNote(p({ reserve_met: false }), true)).toEqual({ met: false, text: 'Reserve not met' });
    expect(reserveNote(p({ reserve_met: true }), false)).toEqual({ met: true, text: 'Reserve met' });
    expect(reserveNote(p({ reserve_met: null }), true)).toBeNull();
    expect(reserveNote(p({ reserve_met: false, status: 'sold' }), true)).toBeNull();
  });
});

describe('bidAction', () => {
  it('is Place Bid while open, disabled once sold or ended, and Register to bid when not registered', () => {
    expect(bidAction({ status: 'available' }, true, false)).toEqual({ label: 'Place Bid', disabled: false });
    expect(bidAction({ status: 'sold' }, true, false)).toMatchObject({ label: 'Place Bid', disabled: true });
    expect(bidAction({ status: 'available' }, true, true)).toMatchObject({ label: 'Place Bid', disabled: true });
    expect(bidAction({ status: 'available' }, false, false)).toEqual({ label: 'Register to bid', disabled: false });
    expect(bidAction({ status: 'available' }, false, true)).toMatchObject({ label: 'Register to bid', disabled: true });
  });
});
