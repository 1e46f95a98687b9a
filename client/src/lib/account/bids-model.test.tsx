import type { UserBid } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import { applyBidEvent, bidStats, bidStatusNote } from './bids-model';
import { makeBid } from '../../features/bids/testing';

const stamp = { server_time: '2026-03-01T10:00:00.000Z' };

describe('bidStats', () => {
  it('counts every row, success as active, failed + rolledback together, and sums success + won amounts', () => {
    const bids = [
      makeBid({ status: 'success', amount: 1500.5 }),
      makeBid({ status: 'success', amount: 200 }),
      makeBid({ status: 'won', amount: 3000.25 }),
      makeBid({ status: 'outbid', amount: 900 }),
      makeBid({ status: 'failed', amount: 50, reason: 'BID_TOO_LOW' }),
      makeBid({ status: 'rolledback', amount: 700, reason: 'CANCELLED' }),
    ];
    expect(bidStats(bids)).toEqual({ total: 6, active: 2, failedOrCancelled: 2, totalAmount: 4700.75 });
  });

  it('adds paise exactly (0.1 + 0.2 is 0.3 here)', () => {
    expect(bidStats([makeBid({ amount: 0.1 }), makeBid({ amount: 0.2 })]).totalAmount).toBe(0.3);
  });

  it('counts an unknown status as failed', () => {
    const odd = makeBid({ status: 'expired' as UserBid['status'], amount: 400 });
    expect(bidStats([odd, makeBid({ status: 'outbid' })])).toEqual({ total: 2, active: 0, failedOrCancelled: 1, totalAmount: 0 });
  });

  it('counts unsold (led below the reserve at the close, refunded) as neither active, failed nor paid', () => {
    expect(bidStats([makeBid({ status: 'unsold', reason: 'RESERVE_NOT_MET', amount: 900 }), makeBid({ status: 'won', amount: 100 })]))
      .toEqual({ total: 2, active: 0, failedOrCancelled: 0, totalAmount: 100 });
  });

  it('is all zeros for no bids', () => {
    expect(bidStats([])).toEqual({ total: 0, active: 0, failedOrCancelled: 0, totalAmount: 0 });
  });
});

describe('bidStatusNote', () => {
  it('says why a failed bid failed and that released bids were refunded', () => {
    expect(bidStatusNote({ status: 'failed', reason: 'BID_TOO_LOW' })).toBe('Bid was too low');
    expect(bidStatusNote({ status: 'failed', reason: 'INSUFFICIENT_FUNDS' })).toBe('Not enough wallet balance');
    expect(bidStatusNote({ status: 'failed', reason: 'SOMETHING_NEW' })).toBe('Something new');
    expect(bidStatusNote({ status: 'outbid', reason: null })).toBe('Refunded');
    expect(bidStatusNote({ status: 'unsold', reason: 'RESERVE_NOT_MET' })).toBe('Refunded');
    expect(bidStatusNote({ status: 'rolledback', reason: 'CANCELLED' })).toBe('Refunded');
    expect(bidStatusNote({ status: 'rolledback', reason: 'PRODUCT_DELETED' })).toBe('Product withdrawn · refunded');
    expect(bidStatusNote({ status: 'success', reason: null })).toBeNull();
    expect(bidStatusNote({ status: 'won', reason: null })).toBeNull();
  });
});

describe('applyBidEvent', () => {
  it('turns the leading bid on the outbid product into outbid, and nothing else', () => {
    const lead = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'success' });
    const otherProduct = makeBid({ product_id: 'P2', auction_id: 'A1', status: 'success' });
    const otherAuction = makeBid({ product_id: 'P1', auction_id: 'A0', status: 'success' });
    const failed = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'failed', reason: 'BID_TOO_LOW' });
    const next = applyBidEvent([lead, otherProduct, otherAuction, failed], {
      event: 'bid:outbid', data: { ...stamp, auction_id: 'A1', product_id: 'P1', product_name: 'Vase', highest_bid: 2000 },
    });
    expect(next.map((b) => b.status)).toEqual(['outbid', 'success', 'success', 'failed']);
    expect(next[1]).toBe(otherProduct);
  });

  it('reinstates the outbid bid with that amount', () => {
    const low = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'outbid', amount: 500 });
    const high = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'outbid', amount: 800 });
    const next = applyBidEvent([high, low], { event: 'bid:reinstated', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 800 } });
    expect(next.map((b) => b.status)).toEqual(['success', 'outbid']);
  });

  it('marks the leading bid won', () => {
    const lead = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'success', amount: 800 });
    const old = makeBid({ product_id: 'P1', auction_id: 'A1', status: 'outbid', amount: 600 });
    const next = applyBidEvent([lead, old], { event: 'bid:won', data: { ...stamp, auction_id: 'A1', product_id: 'P1', amount: 800 } });
    expect(next.map((b) => b.status)).toEqual(['won', 'outbid']);
  });

  it('returns the same array when nothing matches or the event is not about bids', () => {
    const bids = [makeBid({ product_id: 'P1', status: 'outbid' })];
    expect(applyBidEvent(bids, { event: 'bid:outbid', data: { ...stamp, auction_id: 'A-1', product_id: 'P1', product_name: 'x', highest_bid: 1 } })).toBe(bids);
    expect(applyBidEvent(bids, { event: 'wallet:updated', data: { ...stamp, wallet_balance: 10 } })).toBe(bids);
  });
});
