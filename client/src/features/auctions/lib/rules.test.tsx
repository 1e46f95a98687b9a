import { minimumBid } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import { makeAuction } from '../test/fixtures';
import { bidAction, checkBid, filterAuctions } from './rules';

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
  it('refuses empty, non-numeric, zero, negative and over-precise amounts', () => {
    for (const raw of ['', '   ', 'abc', '0', '-5', '10.123', 'Infinity', '1e12']) {
      expect(checkBid(raw, 0)).toEqual({ ok: false, error: 'Please enter a valid bid amount' });
    }
  });

  it('refuses amounts not above the highest bid, with the amount in en-IN format', () => {
    expect(checkBid('100000', 100000)).toEqual({ ok: false, error: 'Bid must be higher than current highest bid of ₹1,00,000' });
    expect(checkBid('50', 300.5)).toEqual({ ok: false, error: 'Bid must be higher than current highest bid of ₹300.5' });
  });

  it('asks for the ₹1 minimum increment like the server does', () => {
    const r = checkBid('1000.5', 1000);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toBe('Bid must be at least ₹1,001: ₹1 more than the current highest bid of ₹1,000');
  });

  it('accepts the minimum and above', () => {
    expect(checkBid('1001', 1000)).toEqual({ ok: true, amount: 1001 });
    expect(checkBid(' 1 ', 0)).toEqual({ ok: true, amount: 1 });
    expect(checkBid('1234.56', 0)).toEqual({ ok: true, amount: 1234.56 });
    expect(minimumBid(300.5)).toBe(301.5);
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
