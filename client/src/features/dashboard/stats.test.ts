import { describe, expect, it } from 'vitest';
import { totalsOf } from '../../lib/account/wallet-model';
import { balanceFromTransactions, countActiveBids, countFailedBids, countMyBids, dashboardStats, describeTransaction, isEnded, totalSpent } from './stats';

const NOW = Date.parse('2026-05-01T12:00:00Z');
const HOUR = 3600_000;
const at = (ms: number) => new Date(NOW + ms).toISOString();
const auction = (endsInMs: number) => ({ valid_until: at(endsInMs), status: endsInMs > 0 ? 'active' as const : 'ended' as const });
const tx = (type: 'topup' | 'bid' | 'refund', amount: number, kind?: 'payment' | 'unused_refund') => ({ type, amount, kind });

describe('isEnded', () => {
  it('reads an auction as ended once its end has passed, even if the list said active', () => {
    expect(isEnded(auction(HOUR), NOW)).toBe(false);
    expect(isEnded({ valid_until: at(-1000), status: 'active' }, NOW)).toBe(true);
    expect(isEnded({ valid_until: at(0), status: 'active' }, NOW)).toBe(true);
  });

  it('trusts the server when it says ended or settled before the end', () => {
    expect(isEnded({ valid_until: at(HOUR), status: 'settled' }, NOW)).toBe(true);
    expect(isEnded({ valid_until: at(HOUR), status: 'ended' }, NOW)).toBe(true);
  });

  it('treats an unreadable end date as ended', () => {
    expect(isEnded({ valid_until: 'soon', status: 'active' }, NOW)).toBe(true);
  });
});

describe('countMyBids / countFailedBids / countActiveBids', () => {
  const states = ['success', 'outbid', 'failed', 'rolledback', 'won', 'mystery', 'failed', 'success'];
  const bids = states.map((state) => ({ state }) as { state: 'success' });

  it('counts the bids that did not fail, cancelled ones included; the failed ones apart', () => {
    expect(countMyBids(bids)).toBe(6);
    expect(countFailedBids(bids)).toBe(2);
    expect(countMyBids(bids) + countFailedBids(bids)).toBe(bids.length);
    expect(countMyBids([])).toBe(0);
  });

  it('counts the leading bids: the Active Bids of the My Bids page', () => {
    expect(countActiveBids(bids)).toBe(2);
    expect(countActiveBids([])).toBe(0);
  });
});

describe('totalSpent', () => {
  it('is what payments cost (wins, buy-nows), not holds, ignoring top-ups', () => {
    expect(totalSpent(totalsOf([tx('topup', 5000), tx('bid', 500), tx('refund', 500), tx('bid', 700)]))).toBe(0);
    expect(totalSpent(totalsOf([tx('topup', 5000), tx('bid', 700), tx('refund', 700), tx('bid', 600, 'payment')]))).toBe(600);
    expect(totalSpent(totalsOf([tx('topup', 5000)]))).toBe(0);
    expect(totalSpent(totalsOf([]))).toBe(0);
  });

  it('adds in paise, so decimals stay exact', () => {
    expect(totalSpent(totalsOf([tx('bid', 0.1, 'payment'), tx('bid', 0.2, 'payment')]))).toBe(0.3);
    expect(totalSpent(totalsOf([tx('bid', 300.55, 'payment'), tx('refund', 100.15, 'unused_refund')]))).toBe(200.4);
  });
});

describe('balanceFromTransactions', () => {
  it('is Σ topup + Σ refund − Σ bid', () => {
    expect(balanceFromTransactions(totalsOf([tx('topup', 2000), tx('bid', 500), tx('refund', 500), tx('bid', 600)]))).toBe(1400);
  });
});

describe('dashboardStats', () => {
  it('computes the dashboard\'s five cards: the catalogue\'s counts as they are, the bids by their full state', () => {
    const stats = dashboardStats({
      activeAuctions: 2,
      endingSoon: 1,
      registeredAuctions: 3,
      bids: [{ state: 'success' }, { state: 'outbid' }, { state: 'failed' }],
      totals: totalsOf([tx('topup', 2000), tx('bid', 400), tx('refund', 400), tx('bid', 500, 'payment')]),
    });
    expect(stats).toEqual({ activeAuctions: 2, endingSoon: 1, myBids: 2, failedBids: 1, activeBids: 1, totalSpent: 500, registeredAuctions: 3 });
  });

  it('is all zeros for empty lists', () => {
    expect(dashboardStats({ activeAuctions: 0, endingSoon: 0, registeredAuctions: 0, bids: [], totals: null }))
      .toEqual({ activeAuctions: 0, endingSoon: 0, myBids: 0, failedBids: 0, activeBids: 0, totalSpent: 0, registeredAuctions: 0 });
  });
});

describe('describeTransaction', () => {
  it('signs bids minus and top-ups and refunds plus', () => {
    expect(describeTransaction({ type: 'bid', meta: { notes: null, product_id: 'P-1' } }))
      .toEqual({ label: 'Bid', description: 'Bid placed · P-1', signed: 'minus' });
    expect(describeTransaction({ type: 'topup', meta: { notes: null, product_id: null } }))
      .toEqual({ label: 'Top-up', description: 'Wallet top-up', signed: 'plus' });
    expect(describeTransaction({ type: 'refund', meta: { notes: 'Outbid on P-1', product_id: 'P-1' } }))
      .toEqual({ label: 'Refund', description: 'Outbid on P-1', signed: 'plus' });
  });

  it('reads a type it does not know as a bid, like the Wallet page', () => {
    expect(describeTransaction({ type: 'fee' as 'bid', meta: { notes: null, product_id: null } }))
      .toEqual({ label: 'Bid', description: 'Bid placed', signed: 'minus' });
    expect(balanceFromTransactions(totalsOf([tx('topup', 1000), { type: 'fee' as 'bid', amount: 100 }]))).toBe(900);
  });

  it('prefers the notes and adds the product id when the notes do not name it', () => {
    expect(describeTransaction({ type: 'refund', meta: { notes: 'Bid cancelled', product_id: 'LAMP-2' } }).description)
      .toBe('Bid cancelled · LAMP-2');
  });

  it('names the product beside its id, leaving out what the notes already say', () => {
    const d = (notes: string | null) => describeTransaction({ type: 'bid', meta: { notes, product_id: 'LAMP-2', product_name: 'Brass Lamp' } }).description;
    expect(d(null)).toBe('Bid placed · Brass Lamp (LAMP-2)');
    expect(d('Bid on Brass Lamp')).toBe('Bid on Brass Lamp · LAMP-2');
    expect(d('Product LAMP-2 was withdrawn')).toBe('Product LAMP-2 was withdrawn · Brass Lamp');
    expect(d('Brass Lamp (LAMP-2) reinstated')).toBe('Brass Lamp (LAMP-2) reinstated');
  });
});
