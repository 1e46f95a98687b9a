import type { LiveAuction } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../live';
import { NOW, inHours, makeAuction, makeProduct } from '../test/fixtures';
import { applyLiveEvent, upsertAuction, type AuctionsData } from './live-reducers';

const T = new Date(NOW).toISOString();

function data(): AuctionsData {
  return {
    auctions: [
      makeAuction({ id: 'AUC-1', registered: true, registrations: [7] }),
      makeAuction({ id: 'AUC-2', name: 'Old Maps', product_ids: ['P-9'] }),
    ],
    products: {
      'AUC-1': [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 2 }), makeProduct({ id: 'P-2', name: 'Omega', highest_bid: 0 })],
    },
  };
}

function live(over: Partial<LiveAuction> = {}): LiveAuction {
  return { id: 'AUC-1', name: 'Vintage Watches', valid_until: inHours(72), product_count: 2, status: 'active', server_time: T, ...over };
}

const product = (d: AuctionsData, auctionId: string, id: string) => d.products[auctionId]?.find((p) => p.id === id);
const auction = (d: AuctionsData, id: string) => d.auctions.find((a) => a.id === id);

describe('applyLiveEvent', () => {

  it('bid:placed sets that product’s highest bid and bid count, and nothing else', () => {
    const before = data();
    const after = applyLiveEvent(before, {
      event: 'bid:placed',
      data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 9, highest_bid: 750, bid_count: 3, version: 3, bidder: 'a***e', amount: 750, timestamp: T, server_time: T },
    });
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 750, bid_count: 3, status: 'available' });
    expect(product(after, 'AUC-1', 'P-2')).toBe(product(before, 'AUC-1', 'P-2'));
    expect(after.auctions).toBe(before.auctions);
    // The input is never mutated.
    expect(product(before, 'AUC-1', 'P-1')?.highest_bid).toBe(500);
  });

  it('bid:rolledback lowers the highest bid to what the server says leads now', () => {
    const after = applyLiveEvent(data(), {
      event: 'bid:rolledback',
      data: { auction_id: 'AUC-1', product_id: 'P-1', highest_bid: 300, bid_count: 1, version: 3, server_time: T },
    });
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 300, bid_count: 1 });
  });

  it('product:sold marks the product sold at the winning amount', () => {
    const after = applyLiveEvent(data(), { event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 800, version: 3, server_time: T } });
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ status: 'sold', highest_bid: 800 });
    expect(product(after, 'AUC-1', 'P-2')?.status).toBe('available');
  });

  it('ignores product events for products or auctions it has not loaded (same object back)', () => {
    const before = data();
    const unknownProduct: LiveEvent = { event: 'bid:placed', data: { auction_id: 'AUC-1', product_id: 'P-404', bid_id: 1, highest_bid: 5, bid_count: 1, version: 1, bidder: 'x', amount: 5, timestamp: T, server_time: T } };
    const unloadedAuction: LiveEvent = { event: 'product:sold', data: { auction_id: 'AUC-2', product_id: 'P-9', amount: 5, version: 1, server_time: T } };
    expect(applyLiveEvent(before, unknownProduct)).toBe(before);
    expect(applyLiveEvent(before, unloadedAuction)).toBe(before);
  });

  it('returns the same object when an event repeats what it already shows (the same version)', () => {
    const before = data();
    const same: LiveEvent = { event: 'bid:rolledback', data: { auction_id: 'AUC-1', product_id: 'P-1', highest_bid: 500, bid_count: 2, version: 2, server_time: T } };
    expect(applyLiveEvent(before, same)).toBe(before);
  });

  it('auction:ended marks the auction ended and stops it at the server’s time if that is earlier', () => {
    const early = new Date(NOW - 60_000).toISOString();
    const after = applyLiveEvent(data(), { event: 'auction:ended', data: { auction_id: 'AUC-2', server_time: early } });
    expect(auction(after, 'AUC-2')).toMatchObject({ status: 'ended', valid_until: early });
    expect(auction(after, 'AUC-1')?.status).toBe('active');
  });

  it('auction:ended keeps the scheduled end when the event comes after it', () => {
    const before = { ...data(), auctions: [makeAuction({ id: 'AUC-3', valid_until: inHours(-1) })] };
    const after = applyLiveEvent(before, { event: 'auction:ended', data: { auction_id: 'AUC-3', server_time: T } });
    expect(auction(after, 'AUC-3')).toMatchObject({ status: 'ended', valid_until: inHours(-1) });
  });

  it('auction:settled marks it settled (an early settlement ends it now), and ended never undoes settled', () => {
    const settled = applyLiveEvent(data(), { event: 'auction:settled', data: { auction_id: 'AUC-1', server_time: T } });
    expect(auction(settled, 'AUC-1')).toMatchObject({ status: 'settled', valid_until: T, registered: true });
    const later = applyLiveEvent(settled, { event: 'auction:ended', data: { auction_id: 'AUC-1', server_time: T } });
    expect(auction(later, 'AUC-1')?.status).toBe('settled');
  });

  it('auction:created adds the auction first, not registered (its products are read when shown)', () => {
    const after = applyLiveEvent(data(), { event: 'auction:created', data: live({ id: 'AUC-NEW', name: 'Rare Coins' }) });
    expect(after.auctions.map((a) => a.id)).toEqual(['AUC-NEW', 'AUC-1', 'AUC-2']);
    expect(after.auctions[0]).toEqual({
      id: 'AUC-NEW', name: 'Rare Coins', valid_until: inHours(72), product_ids: [], product_count: 2,
      status: 'active', registered: false, registrations: [],
    });
  });

  it('auction:updated replaces the auction in place and keeps the caller’s own registration and the ids last read', () => {
    const after = applyLiveEvent(data(), { event: 'auction:updated', data: live({ name: 'Watches & Clocks', valid_until: inHours(5) }) });
    expect(after.auctions.map((a) => a.id)).toEqual(['AUC-1', 'AUC-2']);
    expect(auction(after, 'AUC-1')).toEqual({
      id: 'AUC-1', name: 'Watches & Clocks', valid_until: inHours(5), product_ids: ['P-1'], product_count: 2,
      status: 'active', registered: true, registrations: [7],
    });
    expect(auction(after, 'AUC-1')).not.toHaveProperty('server_time');
  });

  it('auction:updated for an auction it has never seen adds it', () => {
    const after = applyLiveEvent(data(), { event: 'auction:updated', data: live({ id: 'AUC-9' }) });
    expect(after.auctions.map((a) => a.id)).toEqual(['AUC-9', 'AUC-1', 'AUC-2']);
  });

  it('auction:deleted removes the auction and its loaded products', () => {
    const after = applyLiveEvent(data(), { event: 'auction:deleted', data: { id: 'AUC-1', server_time: T } });
    expect(after.auctions.map((a) => a.id)).toEqual(['AUC-2']);
    expect(after.products['AUC-1']).toBeUndefined();
    const before = data();
    expect(applyLiveEvent(before, { event: 'auction:deleted', data: { id: 'AUC-404', server_time: T } })).toBe(before);
  });

  it('leaves events it does not fold (watchers, ending, personal) alone', () => {
    const before = data();
    expect(applyLiveEvent(before, { event: 'auction:watchers', data: { auction_id: 'AUC-1', watchers: 4, server_time: T } })).toBe(before);
    expect(applyLiveEvent(before, { event: 'auction:ending', data: { auction_id: 'AUC-1', seconds_left: 300, server_time: T } })).toBe(before);
    expect(applyLiveEvent(before, { event: 'wallet:updated', data: { wallet_balance: 10, server_time: T } })).toBe(before);
  });
});

describe('applyLiveEvent and product versions', () => {
  // P-1 shows version 2 (highest ₹500, 2 bids).
  const placed = (version: number, amount: number): LiveEvent => ({
    event: 'bid:placed',
    data: { auction_id: 'AUC-1', product_id: 'P-1', bid_id: 100 + version, highest_bid: amount, bid_count: version, version, bidder: 'a***e', amount, timestamp: T, server_time: T },
  });
  const rolledBack = (version: number, highest: number): LiveEvent => ({
    event: 'bid:rolledback',
    data: { auction_id: 'AUC-1', product_id: 'P-1', highest_bid: highest, bid_count: 2, version, server_time: T },
  });
  const sold = (version: number, amount: number): LiveEvent => ({ event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount, version, server_time: T } });

  it('stores the version of an event it applies', () => {
    expect(product(applyLiveEvent(data(), placed(3, 900)), 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 900, bid_count: 3, version: 3 });
    expect(product(applyLiveEvent(data(), sold(3, 500)), 'AUC-1', 'P-1')).toMatchObject({ status: 'sold', highest_bid: 500, version: 3 });
  });

  it('keeps the newer state when events arrive out of order (version 3, then version 2)', () => {
    const v3 = applyLiveEvent(data(), placed(3, 900));
    expect(applyLiveEvent(v3, placed(2, 700))).toBe(v3);
    expect(applyLiveEvent(v3, rolledBack(2, 300))).toBe(v3);
    expect(applyLiveEvent(v3, sold(2, 700))).toBe(v3);
    expect(product(v3, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 900, bid_count: 3, version: 3, status: 'available' });
  });

  it('ignores an event of the version it shows, even when its numbers differ, and applies a newer one', () => {
    const v3 = applyLiveEvent(data(), placed(3, 900));
    expect(applyLiveEvent(v3, rolledBack(3, 500))).toBe(v3);
    expect(applyLiveEvent(v3, placed(3, 950))).toBe(v3);
    const v4 = applyLiveEvent(v3, rolledBack(4, 500));
    expect(product(v4, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 500, bid_count: 2, version: 4 });
    const v5 = applyLiveEvent(v4, sold(5, 500));
    expect(product(v5, 'AUC-1', 'P-1')).toMatchObject({ status: 'sold', highest_bid: 500, version: 5 });
  });

  it('a product loaded with version 5 ignores a live event with version 4', () => {
    const loaded: AuctionsData = { ...data(), products: { 'AUC-1': [makeProduct({ id: 'P-1', highest_bid: 1200, bid_count: 5, version: 5 })] } };
    expect(applyLiveEvent(loaded, placed(4, 1000))).toBe(loaded);
    expect(applyLiveEvent(loaded, sold(4, 1000))).toBe(loaded);
    expect(product(applyLiveEvent(loaded, placed(6, 1300)), 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 1300, version: 6 });
  });
});

describe('upsertAuction', () => {
  it('keeps an unregistered caller unregistered on update', () => {
    const list = upsertAuction([makeAuction({ id: 'AUC-2', registered: false })], live({ id: 'AUC-2', status: 'ended' }));
    expect(list[0]).toMatchObject({ id: 'AUC-2', status: 'ended', registered: false, registrations: [] });
  });
});
