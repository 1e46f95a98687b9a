import type { UserBid } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import { applyBidEvent, bidStats, bidStatusNote } from './bids-model';
import { makeBid } from '../../features/bids/testing';

const stamp = { server_time: '2026-03-01T10:00:00.000Z' };

describe('bidStats', () => {
  it('counts every row, success as active, failed + rolledback together, and sums success + won amounts', () => {
    const bids = [
      makeBid({ state: 'success', amount: 1500.5 }),
      makeBid({ state: 'success', amount: 200 }),
      makeBid({ state: 'won', amount: 3000.25 }),
      makeBid({ state: 'outbid', amount: 900 }),
      makeBid({ state: 'failed', amount: 50, reason: 'BID_TOO_LOW' }),
      makeBid({ state: 'rolledback', amount: 700, reason: 'CANCELLED' }),
    ];
    expect(bidStats(bids)).toEqual({ total: 6, active: 2, failedOrCancelled: 2, totalAmount: 4700.75 });
  });

  it('adds paise exactly (0.1 + 0.2 is 0.3 here)', () => {
    expect(bidStats([makeBid({ amount: 0.1 }), makeBid({ amount: 0.2 })]).totalAmount).toBe(0.3);
  });

  it('counts an unknown status as failed', () => {
    const odd = makeBid({ state: 'expired' as UserBid['status'], amount: 400 });
    expect(bidStats([odd, makeBid({ state: 'outbid' })])).toEqual({ total: 2, active: 0, failedOrCancelled: 1, totalAmount: 0 });
  });

  it('counts unsold (led below the reserve at the close, refunded) as neither active, failed nor paid', () => {
    expect(bidStats([makeBid({ state: 'unsold', reason: 'RESERVE_NOT_MET', amount: 900 }), makeBid({ state: 'won', amount: 100 })]))
      .toEqual({ total: 2, active: 0, failedOrCancelled: 0, totalAmount: 100 });
  });

  it('is all zeros for no bids', () => {
    expect(bidStats([])).toEqual({ total: 0, active: 0, failedOrCancelled: 0, totalAmount: 0 });
  });

  it('reads the full state, not the spec’s status: an outbid bid (status failed) is not failed, a won one (status success) is not active', () => {
    const outbid = makeBid({ state: 'outbid', amount: 900 });
    const won = makeBid({ state: 'won', amount: 300 });
    expect([outbid.status, won.status]).toEqual(['failed', 'success']);
    expect(bidStats([outbid, won])).toEqual({ total: 2, active: 0, failedOrCancelled: 0, totalAmount: 300 });
  });
});

describe('bidStatusNote', () => {
  it('says why a failed bid failed and that released bids were refunded', () => {
    expect(bidStatusNote({ state: 'failed', reason: 'BID_TOO_LOW' })).toBe('Bid was too low');
    expect(bidStatusNote({ state: 'failed', reason: 'INSUFFICIENT_FUNDS' })).toBe('Not enough wallet balance');
    expect(bidStatusNote({ state: 'failed', reason: 'SOMETHING_NEW' })).toBe('Something new');
    expect(bidStatusNote({ state: 'outbid', reason: null })).toBe('Refunded');
    expect(bidStatusNote({ state: 'unsold', reason: 'RESERVE_NOT_MET' })).toBe('Refunded');
    expect(bidStatusNote({ state: 'rolledback', reason: 'CANCELLED' })).toBe('Refunded');
    expect(bidStatusNote({ state: 'rolledback', reason: 'PRODUCT_DELETED' })).toBe('Product withdrawn · refunded');
    expect(bidStatusNote({ state: 'success', reason: null })).toBeNull();
    expect(bidStatusNote({ state: 'won', reason: null })).toBeNull();
  });
});

describe('applyBidEvent', () => {
  it('turns the leading bid on the outbid product into outbid, and nothing else', () => {
    const lead = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'success' });
    const otherProduct = makeBid({ product_id: 'P2', auction_id: 'A1', state: 'success' });
    const otherAuction = makeBid({ product_id: 'P1', auction_id: 'A0', state: 'success' });
    const failed = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'failed', reason: 'BID_TOO_LOW' });
    const next = applyBidEvent([lead, otherProduct, otherAuction, failed], {
      event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 2000 },
    });
    expect(next.map((b) => b.state)).toEqual(['outbid', 'success', 'success', 'failed']);
    expect(next[1]).toBe(otherProduct);
  });

  it('reinstates the outbid bid with that amount', () => {
    const low = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'outbid', amount: 500 });
    const high = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'outbid', amount: 800 });
    const next = applyBidEvent([high, low], { event: 'bid:reinstated', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 800 } });
    expect(next.map((b) => b.state)).toEqual(['success', 'outbid']);
  });

  it('marks the leading bid won', () => {
    const lead = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'success', amount: 800 });
    const old = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'outbid', amount: 600 });
    const next = applyBidEvent([lead, old], { event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 800 } });
    expect(next.map((b) => b.state)).toEqual(['won', 'outbid']);
  });

  it('moves the state and the spec’s status together: outbid reads failed, won reads success', () => {
    const lead = makeBid({ product_id: 'P1', auction_id: 'A1', state: 'success', amount: 800 });
    const outbid = applyBidEvent([lead], { event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 900 } });
    expect(outbid[0]).toMatchObject({ state: 'outbid', status: 'failed' });
    const back = applyBidEvent(outbid, { event: 'bid:reinstated', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 800 } });
    expect(back[0]).toMatchObject({ state: 'success', status: 'success' });
    const won = applyBidEvent(back, { event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 800 } });
    expect(won[0]).toMatchObject({ state: 'won', status: 'success' });
  });

  it('follows the bid’s auction: its end moved by soft close, edited, ended, settled; other auctions’ rows stay as they are', () => {
    const end = '2026-03-01T12:00:00.000Z';
    const later = '2026-03-01T12:02:00.000Z';
    const mine = makeBid({ auction_id: 'A1', auction_valid_until: end });
    const again = makeBid({ auction_id: 'A1', auction_valid_until: end });
    const other = makeBid({ auction_id: 'A2', auction_valid_until: end });
    const extended = applyBidEvent([mine, again, other], { event: 'auction:extended', data: { ...stamp, auction_id: 'A1', valid_until: later, original_valid_until: end } });
    expect(extended.map((b) => b.auction_valid_until)).toEqual([later, later, end]);
    expect(extended[2]).toBe(other);
    // An extension no later than the end shown changes nothing.
    expect(applyBidEvent(extended, { event: 'auction:extended', data: { ...stamp, auction_id: 'A1', valid_until: end, original_valid_until: end } })).toBe(extended);

    const summary = {
      ...stamp, id: 'A1', name: 'Spring Sale', valid_until: later, original_valid_until: end, product_count: 1, status: 'active' as const,
      increment_rule: 'flat' as const, increment_amount: 1, increment_tiers: [], cancel_policy: 'strict' as const, soft_close_s: 120, max_extension_s: 600, extended: true,
    };
    const edited = applyBidEvent(extended, { event: 'auction:updated', data: summary });
    expect(edited.map((b) => b.auction_cancel_policy)).toEqual(['strict', 'strict', 'until_end']);

    const ended = applyBidEvent(edited, { event: 'auction:ended', data: { ...stamp, auction_id: 'A1' } });
    expect(ended.map((b) => b.auction_status)).toEqual(['ended', 'ended', 'active']);
    // Ended early (the server's time is before the end shown): the end shown is then.
    expect(Date.parse(ended[0]!.auction_valid_until)).toBe(Date.parse(stamp.server_time));
    const settled = applyBidEvent(ended, { event: 'auction:settled', data: { ...stamp, auction_id: 'A1' } });
    expect(settled.map((b) => b.auction_status)).toEqual(['settled', 'settled', 'active']);
    expect(applyBidEvent(settled, { event: 'auction:ended', data: { ...stamp, auction_id: 'A1' } })).toBe(settled);
  });

  it('returns the same array when nothing matches or the event is not about bids', () => {
    const bids = [makeBid({ product_id: 'P1', state: 'outbid' })];
    expect(applyBidEvent(bids, { event: 'bid:outbid', data: { ...stamp, auction_id: 'A-1', product_id: 'P1', product_name: 'x', highest_bid: 1 } })).toBe(bids);
    expect(applyBidEvent(bids, { event: 'wallet:updated', data: { ...stamp, wallet_balance: 10 } })).toBe(bids);
  });
});
