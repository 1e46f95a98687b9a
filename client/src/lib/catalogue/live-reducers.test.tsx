import type { LiveAuction } from '@auction/shared';
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../live';
import { NOW, inHours, liveAuction, makeAuction, makeProduct, placedEvent, rolledBackEvent, soldEvent } from '../../features/auctions/test/fixtures';
import { applyLiveEvent, needsProductsRead, upsertAuction, type AuctionsData } from './live-reducers';

const T = new Date(NOW).toISOString();

function data(): AuctionsData {
  return {
    auctions: [
      makeAuction({ id: 'AUC-1', registered: true, registrations: [7], highest_bid: 900, bid_count: 3, cover: { url: '/media/c.webp', thumb_url: '/media/t.webp' } }),
      makeAuction({ id: 'AUC-2', name: 'Old Maps', product_ids: ['P-9'] }),
    ],
    products: {
      'AUC-1': [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 2 }), makeProduct({ id: 'P-2', name: 'Omega', highest_bid: 0 })],
    },
  };
}

function live(over: Partial<LiveAuction> = {}): LiveAuction {
  return liveAuction({ product_count: 2, ...over });
}

const product = (d: AuctionsData, auctionId: string, id: string) => d.products[auctionId]?.find((p) => p.id === id);
const auction = (d: AuctionsData, id: string) => d.auctions.find((a) => a.id === id);

describe('applyLiveEvent', () => {

  it('bid:placed sets that product’s highest bid and bid count, and nothing else', () => {
    const before = data();
    const after = applyLiveEvent(before, placedEvent({ bid_id: 9, highest_bid: 750, bid_count: 3, version: 3 }));
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 750, bid_count: 3, status: 'available' });
    expect(product(after, 'AUC-1', 'P-2')).toBe(product(before, 'AUC-1', 'P-2'));
    expect(after.auctions).toBe(before.auctions);
    // The input is never mutated.
    expect(product(before, 'AUC-1', 'P-1')?.highest_bid).toBe(500);
  });

  it('bid:rolledback lowers the highest bid to what the server says leads now', () => {
    const after = applyLiveEvent(data(), rolledBackEvent({ highest_bid: 300, bid_count: 1, version: 3 }));
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 300, bid_count: 1 });
  });

  it('product:sold marks the product sold at the winning amount', () => {
    const after = applyLiveEvent(data(), soldEvent({ amount: 800, version: 3 }));
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ status: 'sold', highest_bid: 800 });
    expect(product(after, 'AUC-1', 'P-2')?.status).toBe('available');
  });

  it('ignores product events for products or auctions it has not loaded (same object back)', () => {
    const before = data();
    const unknownProduct = placedEvent({ product_id: 'P-404', highest_bid: 5, bid_count: 1 });
    const unloadedAuction = soldEvent({ auction_id: 'AUC-2', product_id: 'P-9', amount: 5, version: 1 });
    expect(applyLiveEvent(before, unknownProduct)).toBe(before);
    expect(applyLiveEvent(before, unloadedAuction)).toBe(before);
  });

  it('returns the same object when an event repeats what it already shows (the same version)', () => {
    const before = data();
    const same = rolledBackEvent({ highest_bid: 500, bid_count: 2, version: 2 });
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
      original_valid_until: inHours(72), increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 0, max_extension_s: 3600, extended: false,
      // Live summaries carry no prices or photos: none yet, until the list is read.
      highest_bid: 0, bid_count: 0, cover: null,
    });
  });

  it('auction:updated replaces the auction in place and keeps the caller’s own registration and the ids last read', () => {
    const after = applyLiveEvent(data(), {
      event: 'auction:updated',
      data: live({ name: 'Watches & Clocks', valid_until: inHours(5), original_valid_until: inHours(5), increment_rule: 'ladder', soft_close_s: 120 }),
    });
    expect(after.auctions.map((a) => a.id)).toEqual(['AUC-1', 'AUC-2']);
    expect(auction(after, 'AUC-1')).toEqual({
      id: 'AUC-1', name: 'Watches & Clocks', valid_until: inHours(5), product_ids: ['P-1'], product_count: 2,
      status: 'active', registered: true, registrations: [7],
      original_valid_until: inHours(5), increment_rule: 'ladder', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 120, max_extension_s: 3600, extended: false,
      highest_bid: 900, bid_count: 3, cover: { url: '/media/c.webp', thumb_url: '/media/t.webp' },
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
  const placed = (version: number, amount: number): LiveEvent => placedEvent({ highest_bid: amount, bid_count: version, version });
  const rolledBack = (version: number, highest: number): LiveEvent => rolledBackEvent({ highest_bid: highest, bid_count: 2, version });
  const sold = (version: number, amount: number): LiveEvent => soldEvent({ amount, version });

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

describe('applyLiveEvent and the new lot and auction fields', () => {
  it('bid:placed folds in the minimum, the reserve and whether buy now is still open', () => {
    const before: AuctionsData = { ...data(), products: { 'AUC-1': [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 2, buy_now_price: 5000, reserve_met: false })] } };
    const stillOpen = applyLiveEvent(before, placedEvent({ highest_bid: 600, bid_count: 3, min_next_bid: 610, reserve_met: false, buy_now_available: true }));
    expect(product(stillOpen, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 600, min_next_bid: 610, reserve_met: false, buy_now_price: 5000 });
    const closed = applyLiveEvent(stillOpen, placedEvent({ highest_bid: 2000, bid_count: 4, min_next_bid: 2050, reserve_met: true, buy_now_available: false }));
    expect(product(closed, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 2000, min_next_bid: 2050, reserve_met: true, buy_now_price: null });
  });

  it('bid:rolledback folds in the minimum and reserve; a buy-now price it brings back needs a read', () => {
    const products = [makeProduct({ id: 'P-1', highest_bid: 900, bid_count: 2, buy_now_price: null, reserve_met: true })];
    const back = rolledBackEvent({ highest_bid: 0, bid_count: 0, version: 3, min_next_bid: 100, reserve_met: false, buy_now_available: true });
    const after = applyLiveEvent({ ...data(), products: { 'AUC-1': products } }, back);
    expect(product(after, 'AUC-1', 'P-1')).toMatchObject({ highest_bid: 0, min_next_bid: 100, reserve_met: false, buy_now_price: null });
    expect(needsProductsRead(products, back)).toBe(true);
    expect(needsProductsRead([{ ...products[0]!, buy_now_price: 4000 }], back)).toBe(false);
    expect(needsProductsRead(products, rolledBackEvent({ version: 3, buy_now_available: false }))).toBe(false);
  });

  it('the caller’s personal events set their standing on the lot, whatever its version', () => {
    const leading: AuctionsData = { ...data(), products: { 'AUC-1': [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 2, my_status: 'leading', my_max: 900 })] } };
    const outbid = applyLiveEvent(leading, { event: 'bid:outbid', data: { auction_id: 'AUC-1', product_id: 'P-1', product_name: 'Rolex', highest_bid: 950, server_time: T } });
    expect(product(outbid, 'AUC-1', 'P-1')).toMatchObject({ my_status: 'outbid', my_max: null, highest_bid: 500, version: 2 });
    const back = applyLiveEvent(outbid, { event: 'bid:reinstated', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 500, server_time: T } });
    expect(product(back, 'AUC-1', 'P-1')).toMatchObject({ my_status: 'leading', my_max: null });
    const won = applyLiveEvent(back, { event: 'bid:won', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 500, server_time: T } });
    expect(product(won, 'AUC-1', 'P-1')).toMatchObject({ my_status: 'won', my_max: null });
    // Another auction's lot, or the same standing again: nothing changes.
    expect(applyLiveEvent(won, { event: 'bid:won', data: { auction_id: 'AUC-2', product_id: 'P-1', amount: 500, server_time: T } })).toBe(won);
    expect(applyLiveEvent(won, { event: 'bid:won', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 500, server_time: T } })).toBe(won);
  });

  it('product:sold: at the end the leader has won and the outbid have lost; bought now, every bidder has lost but a win stays', () => {
    const lots = (my_status: 'leading' | 'outbid' | 'won' | null) => ({
      ...data(), products: { 'AUC-1': [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 2, my_status, my_max: my_status === 'leading' ? 800 : null, buy_now_price: 3000 })] },
    });
    const atEnd = soldEvent({ amount: 500, version: 3 });
    const boughtNow = soldEvent({ amount: 3000, version: 3, buy_now: true });
    expect(product(applyLiveEvent(lots('leading'), atEnd), 'AUC-1', 'P-1')).toMatchObject({ status: 'sold', my_status: 'won', my_max: null, buy_now_price: null });
    expect(product(applyLiveEvent(lots('outbid'), atEnd), 'AUC-1', 'P-1')).toMatchObject({ my_status: 'lost' });
    expect(product(applyLiveEvent(lots('leading'), boughtNow), 'AUC-1', 'P-1')).toMatchObject({ status: 'sold', highest_bid: 3000, my_status: 'lost', my_max: null });
    expect(product(applyLiveEvent(lots('won'), boughtNow), 'AUC-1', 'P-1')).toMatchObject({ my_status: 'won' });
    expect(product(applyLiveEvent(lots(null), boughtNow), 'AUC-1', 'P-1')).toMatchObject({ my_status: null });
    // The previous leader's bid:outbid after a purchase: the lot is gone, not to be bid on again.
    const sold = applyLiveEvent(lots(null), boughtNow);
    const late = applyLiveEvent(sold, { event: 'bid:outbid', data: { auction_id: 'AUC-1', product_id: 'P-1', product_name: 'Rolex', highest_bid: 3000, server_time: T } });
    expect(product(late, 'AUC-1', 'P-1')?.my_status).toBe('lost');
  });

  it('auction:extended (the room event) moves the end later and marks the auction extended; an older extension changes nothing', () => {
    const end = inHours(72);
    const later = new Date(Date.parse(end) + 120_000).toISOString();
    const after = applyLiveEvent(data(), { event: 'auction:extended', data: { auction_id: 'AUC-1', valid_until: later, original_valid_until: end, server_time: T } });
    expect(auction(after, 'AUC-1')).toMatchObject({ valid_until: later, original_valid_until: end, extended: true, registered: true });
    expect(auction(after, 'AUC-2')?.extended).toBe(false);
    expect(applyLiveEvent(after, { event: 'auction:extended', data: { auction_id: 'AUC-1', valid_until: new Date(Date.parse(end) + 60_000).toISOString(), original_valid_until: end, server_time: T } })).toBe(after);
  });

  it('auction:extended (the catalogue event, a summary) extends a listed auction and adds one the tab did not list', () => {
    const end = inHours(72);
    const later = new Date(Date.parse(end) + 300_000).toISOString();
    const summary = { ...live({ valid_until: later, original_valid_until: end, extended: true, soft_close_s: 300 }), auction_id: 'AUC-1' };
    const after = applyLiveEvent(data(), { event: 'auction:extended', data: summary });
    expect(auction(after, 'AUC-1')).toMatchObject({ valid_until: later, extended: true, registered: true, registrations: [7] });
    const added = applyLiveEvent(data(), { event: 'auction:extended', data: { ...summary, id: 'AUC-7', auction_id: 'AUC-7', name: 'Late Lots' } });
    expect(added.auctions[0]).toMatchObject({ id: 'AUC-7', name: 'Late Lots', valid_until: later, extended: true, soft_close_s: 300, registered: false });
  });
});
