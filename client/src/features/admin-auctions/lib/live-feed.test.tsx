import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../../lib/live';
import { bidPlaced, bidRolledBack, makeAdminAuction, makeProduct } from '../testing';
import { applyDetailEvent, boughtNowOf, detailReducer, mergeFeeds, toFeed, winnerOf, type DetailData, type FeedEntry } from './live-feed';

const T0 = '2026-03-01T10:00:00.000Z';
const T1 = '2026-03-01T10:05:00.000Z';
const T2 = '2026-03-01T10:09:00.000Z';

const entry = (over: Partial<FeedEntry>): FeedEntry => ({ key: `b${over.bid_id ?? 1}`, bid_id: 1, product_id: 'P-1', amount: 500, bidder: 'asha', timestamp: T0, state: 'success', ...over });

function data(): DetailData {
  return {
    auction: makeAdminAuction({ id: 'AUC-1', product_ids: ['P-1', 'P-2'], product_count: 2 }),
    products: [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 1 }), makeProduct({ id: 'P-2', name: 'Brass Lamp' })],
    feed: [entry({ bid_id: 1 })],
    boughtNow: [],
  };
}

const placed = (over: Partial<Extract<LiveEvent, { event: 'bid:placed' }>['data']> = {}): LiveEvent => ({
  event: 'bid:placed',
  data: bidPlaced({ timestamp: T1, ...over }),
});

describe('applyDetailEvent', () => {
  it('bid:placed prepends the bid with the bidder’s username and moves the product’s numbers', () => {
    const before = data();
    const after = applyDetailEvent(before, placed());
    expect(after.feed.map((f) => [f.bid_id, f.bidder, f.amount])).toEqual([[2, 'ravi_k', 750], [1, 'asha', 500]]);
    expect(after.feed[0]).toMatchObject({ product_id: 'P-1', timestamp: T1, state: 'success' });
    // The bid that led before is outbid now.
    expect(after.feed[1]?.state).toBe('outbid');
    expect(after.products[0]).toMatchObject({ highest_bid: 750, bid_count: 2 });
    expect(after.products[1]).toBe(before.products[1]);
    // Never mutated.
    expect(before.feed).toHaveLength(1);
    expect(before.feed[0]?.state).toBe('success');
  });

  it('newest stays first over several bids and a repeated frame is ignored', () => {
    let d = applyDetailEvent(data(), placed());
    d = applyDetailEvent(d, placed({ bid_id: 3, product_id: 'P-2', amount: 90, highest_bid: 90, bid_count: 1, version: 1, bidder: 'meera', timestamp: T2 }));
    expect(d.feed.map((f) => f.bid_id)).toEqual([3, 2, 1]);
    // Another product's lead is untouched.
    expect(d.feed[1]?.state).toBe('success');
    expect(applyDetailEvent(d, placed({ bid_id: 3 }))).toBe(d);
  });

  it('ignores events of other auctions (same object back)', () => {
    const before = data();
    expect(applyDetailEvent(before, placed({ auction_id: 'AUC-9' }))).toBe(before);
    expect(applyDetailEvent(before, { event: 'wallet:updated', data: { wallet_balance: 5, server_time: T1 } })).toBe(before);
  });

  it('bid:rolledback sets the numbers the server says lead now', () => {
    const after = applyDetailEvent(data(), { event: 'bid:rolledback', data: bidRolledBack({ highest_bid: 0, bid_count: 1, version: 2, server_time: T1 }) });
    expect(after.products[0]).toMatchObject({ highest_bid: 0, bid_count: 1 });
  });

  it('product:sold marks the product sold and its leading bid won; auction:settled marks the auction settled', () => {
    let d = applyDetailEvent(data(), { event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 500, version: 2, buy_now: false, server_time: T1 } });
    expect(d.products[0]).toMatchObject({ status: 'sold', highest_bid: 500 });
    expect(d.feed[0]?.state).toBe('won');
    d = applyDetailEvent(d, { event: 'auction:settled', data: { auction_id: 'AUC-1', server_time: T1 } });
    expect(d.auction.status).toBe('settled');
    expect(applyDetailEvent(d, { event: 'auction:ended', data: { auction_id: 'AUC-1', server_time: T2 } }).auction.status).toBe('settled');
  });
});

describe('applyDetailEvent and product versions', () => {
  // P-1 shows version 1 (highest ₹500, bid 1 leading).
  const sold = (version: number, amount: number): LiveEvent => ({ event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount, version, buy_now: false, server_time: T2 } });
  const rolledBack = (version: number, highest: number): LiveEvent => ({ event: 'bid:rolledback', data: bidRolledBack({ highest_bid: highest, version, server_time: T2 }) });

  it('a bid arriving after a newer one joins the feed as outbid but moves neither the numbers nor the lead', () => {
    const v3 = applyDetailEvent(data(), placed({ bid_id: 3, amount: 900, highest_bid: 900, bid_count: 3, version: 3, timestamp: T2 }));
    const late = applyDetailEvent(v3, placed({ bid_id: 2, amount: 750, highest_bid: 750, bid_count: 2, version: 2, timestamp: T1 }));
    expect(late.products).toBe(v3.products);
    expect(late.products[0]).toMatchObject({ highest_bid: 900, bid_count: 3, version: 3 });
    expect(late.feed.map((f) => [f.bid_id, f.state])).toEqual([[3, 'success'], [2, 'outbid'], [1, 'outbid']]);
  });

  it('a late bid that matches a sale shown since is the won bid', () => {
    const v3 = applyDetailEvent(data(), sold(3, 750));
    const late = applyDetailEvent(v3, placed({ bid_id: 2, amount: 750, highest_bid: 750, bid_count: 2, version: 2, timestamp: T1 }));
    expect(late.products).toBe(v3.products);
    expect(late.feed.map((f) => [f.bid_id, f.state])).toEqual([[2, 'won'], [1, 'won']]);
  });

  it('ignores a rollback or sale no newer than the version shown (same object back), and applies a newer one', () => {
    const v3 = applyDetailEvent(data(), placed({ bid_id: 3, amount: 900, highest_bid: 900, bid_count: 3, version: 3, timestamp: T2 }));
    expect(applyDetailEvent(v3, rolledBack(2, 500))).toBe(v3);
    expect(applyDetailEvent(v3, rolledBack(3, 500))).toBe(v3);
    expect(applyDetailEvent(v3, sold(3, 900))).toBe(v3);
    const v4 = applyDetailEvent(v3, sold(4, 900));
    expect(v4.products[0]).toMatchObject({ status: 'sold', highest_bid: 900, version: 4 });
    expect(v4.feed[0]).toMatchObject({ bid_id: 3, state: 'won' });
  });

  it('a product loaded with version 5 ignores live events with version 4', () => {
    const loaded: DetailData = {
      ...data(),
      products: [makeProduct({ id: 'P-1', highest_bid: 1200, bid_count: 5, version: 5 })],
      feed: [entry({ bid_id: 5, amount: 1200, timestamp: T2 })],
    };
    const after = applyDetailEvent(loaded, placed({ bid_id: 4, amount: 1000, highest_bid: 1000, bid_count: 4, version: 4, timestamp: T1 }));
    expect(after.products).toBe(loaded.products);
    expect(after.feed.map((f) => [f.bid_id, f.state])).toEqual([[5, 'success'], [4, 'outbid']]);
    expect(applyDetailEvent(loaded, rolledBack(4, 1000))).toBe(loaded);
    expect(applyDetailEvent(loaded, sold(4, 1000))).toBe(loaded);
  });
});

describe('feeds', () => {
  it('toFeed keeps this auction’s real bids; mergeFeeds orders newest first without duplicates', () => {
    const p1 = toFeed('P-1', 'AUC-1', [
      { bid_id: 5, auction_id: 'AUC-1', amount: 300, state: 'outbid', timestamp: T0, bidder: 'asha' },
      { bid_id: 6, auction_id: 'AUC-1', amount: 100, state: 'failed', timestamp: T1, bidder: 'asha' },
      { bid_id: 7, auction_id: 'OLD', amount: 999, state: 'outbid', timestamp: T1, bidder: 'asha' },
    ]);
    const p2 = toFeed('P-2', 'AUC-1', [{ bid_id: 8, auction_id: 'AUC-1', amount: 50, state: 'success', timestamp: T2, bidder: 'ravi' }]);
    expect(p1.map((f) => f.bid_id)).toEqual([5]);
    expect(mergeFeeds(p1, p2, p1).map((f) => f.bid_id)).toEqual([8, 5]);
  });

  it('detailReducer replaces one product’s bids and ignores actions before the load', () => {
    expect(detailReducer(null, { type: 'live', event: placed() })).toBeNull();
    const d = detailReducer(data(), { type: 'bids', productId: 'P-1', bids: [entry({ bid_id: 9, timestamp: T2, state: 'success' })] });
    expect(d?.feed.map((f) => f.bid_id)).toEqual([9]);
  });
});

describe('the bidding rules in the detail data', () => {
  it('bid:placed and bid:rolledback carry the next minimum, the reserve and whether buy-now is still there; an automatic raise is marked', () => {
    const priced: DetailData = { ...data(), products: [makeProduct({ id: 'P-1', highest_bid: 500, bid_count: 1, version: 1, buy_now_price: 5000, reserve_met: false })] };
    const raised = applyDetailEvent(priced, placed({ auto: true, min_next_bid: 760, reserve_met: true, buy_now_available: false }));
    expect(raised.products[0]).toMatchObject({ highest_bid: 750, min_next_bid: 760, reserve_met: true, buy_now_price: null });
    expect(raised.feed[0]).toMatchObject({ bid_id: 2, auto: true });
    expect(applyDetailEvent(priced, placed()).feed[0]?.auto).toBeUndefined();

    const kept = applyDetailEvent(priced, placed({ buy_now_available: true, reserve_met: false }));
    expect(kept.products[0]).toMatchObject({ buy_now_price: 5000, reserve_met: false });
    const back = applyDetailEvent(raised, { event: 'bid:rolledback', data: bidRolledBack({ highest_bid: 500, version: 3, min_next_bid: 501, reserve_met: false }) });
    expect(back.products[0]).toMatchObject({ highest_bid: 500, min_next_bid: 501, reserve_met: false });
  });

  it('a buy-now sale: the lot is sold, the lead it beat is outbid, and the lot is known as bought now', () => {
    const d = applyDetailEvent(data(), { event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 2000, version: 2, buy_now: true, server_time: T1 } });
    expect(d.products[0]).toMatchObject({ status: 'sold', highest_bid: 2000 });
    expect(d.feed[0]?.state).toBe('outbid');
    expect(d.boughtNow).toEqual(['P-1']);
    // The buyer's bid comes with the product's bids, read again.
    const read = detailReducer(d, { type: 'bids', productId: 'P-1', bids: [entry({ bid_id: 3, amount: 2000, bidder: 'meera', state: 'won', timestamp: T2 }), entry({ state: 'outbid' })] });
    expect(winnerOf(read!.feed, 'P-1')).toBe('meera');
  });

  it('a re-read of one product’s bids keeps the automatic raises seen live, as rows of their own', () => {
    const d = applyDetailEvent(data(), placed({ auto: true }));
    const read = detailReducer(d, { type: 'bids', productId: 'P-1', bids: [entry({ bid_id: 2, amount: 750, timestamp: T1 }), entry({ state: 'outbid' })] });
    expect(read!.feed.map((f) => [f.bid_id, f.auto ?? false])).toEqual([[2, true], [2, false], [1, false]]);
  });
});

describe('automatic raises in the admin feed', () => {
  const T3 = '2026-03-01T10:09:00.000Z';
  // Ravi's maximum leads at ₹600 (version 2), then rises by itself twice at the same moment (versions 3 and 4).
  const ravi = placed({ bid_id: 5, amount: 600, highest_bid: 600, bid_count: 2, version: 2, bidder: 'ravi_k', timestamp: T1 });
  const raise = (version: number, amount: number) => placed({ bid_id: 5, amount, highest_bid: amount, bid_count: version, version, bidder: 'ravi_k', auto: true, timestamp: T3 });

  it('each raise is a row at its own time, marked automatic, newest version first; the bid it raised stays leading', () => {
    let d = applyDetailEvent(data(), ravi);
    d = applyDetailEvent(d, raise(3, 700));
    d = applyDetailEvent(d, raise(4, 800));
    expect(d.feed.map((f) => [f.key, f.amount, f.auto ?? false, f.timestamp, f.state])).toEqual([
      ['a5@4', 800, true, T3, 'success'],
      ['a5@3', 700, true, T3, 'success'],
      ['b5', 600, false, T1, 'success'],
      ['b1', 500, false, T0, 'outbid'],
    ]);
    expect(d.products[0]).toMatchObject({ highest_bid: 800, version: 4 });
    // The same raise again (a repeated frame) adds nothing.
    expect(applyDetailEvent(d, raise(4, 800))).toBe(d);
  });

  it('raises that arrive out of order are placed by version and never move the lot back', () => {
    let d = applyDetailEvent(data(), ravi);
    d = applyDetailEvent(d, raise(4, 800));
    d = applyDetailEvent(d, raise(3, 700));
    expect(d.feed.map((f) => f.key)).toEqual(['a5@4', 'a5@3', 'b5', 'b1']);
    expect(d.feed.map((f) => f.state)).toEqual(['success', 'success', 'success', 'outbid']);
    expect(d.products[0]).toMatchObject({ highest_bid: 800, version: 4 });
  });

  it('the history read lists raises too: one row for a raise seen live and read, keeping the version it came with', () => {
    let d = applyDetailEvent(applyDetailEvent(data(), ravi), raise(3, 700));
    // The lot's history, highest first: the raise (no version there), the bid, the older bid.
    const history = toFeed('P-1', 'AUC-1', [
      { bid_id: 5, amount: 800, state: 'success', timestamp: T3, bidder: 'ravi_k', auto: true },
      { bid_id: 5, amount: 700, state: 'success', timestamp: T3, bidder: 'ravi_k', auto: true },
      { bid_id: 5, amount: 600, state: 'success', timestamp: T1, bidder: 'ravi_k', auto: false },
      { bid_id: 1, amount: 500, state: 'outbid', timestamp: T0, bidder: 'asha', auto: false },
    ]);
    expect(history.map((f) => [f.key, f.auto ?? false])).toEqual([['a5@₹800', true], ['a5@₹700', true], ['b5', false], ['b1', false]]);
    d = detailReducer(d, { type: 'bids', productId: 'P-1', bids: history })!;
    expect(d.feed.map((f) => [f.key, f.amount, f.version])).toEqual([['a5@₹800', 800, undefined], ['a5@3', 700, 3], ['b5', 600, 2], ['b1', 500, undefined]]);
    // The ₹800 raise's event arriving after the read adds no second row.
    expect(applyDetailEvent(d, raise(4, 800)).feed).toHaveLength(4);
    // A page read from nothing shows the same rows.
    expect(mergeFeeds(history).map((f) => [f.bid_id, f.amount, f.auto ?? false])).toEqual(d.feed.map((f) => [f.bid_id, f.amount, f.auto ?? false]));
  });

  it('the settlement marks the winning bid’s rows won; the winner is the product’s own when the server sent it', () => {
    let d = applyDetailEvent(applyDetailEvent(data(), ravi), raise(3, 700));
    d = applyDetailEvent(d, { event: 'product:sold', data: { auction_id: 'AUC-1', product_id: 'P-1', amount: 700, version: 4, buy_now: false, server_time: T3 } });
    expect(d.feed.filter((f) => f.bid_id === 5).map((f) => f.state)).toEqual(['won', 'won']);
    expect(winnerOf(d.feed, 'P-1')).toBe('ravi_k');
    // A lot whose winning bid the feed never read: the product's `winner` names it.
    const read = detailReducer(d, { type: 'products', products: [{ ...d.products[0]!, winner: 'zoya' }, { ...d.products[1]!, status: 'sold', winner: 'kabir' }] })!;
    expect(winnerOf(read.feed, 'P-2', read.products)).toBe('kabir');
    expect(winnerOf(read.feed, 'P-1', read.products)).toBe('zoya');
  });

  it('auction:extended moves the end and marks the auction extended', () => {
    const before = data();
    const end = '2026-03-04T10:02:00.000Z';
    const after = applyDetailEvent(before, { event: 'auction:extended', data: { auction_id: 'AUC-1', valid_until: end, original_valid_until: before.auction.valid_until, server_time: T1 } });
    expect(after.auction).toMatchObject({ valid_until: end, original_valid_until: before.auction.valid_until, extended: true });
    expect(applyDetailEvent(after, { event: 'auction:extended', data: { auction_id: 'AUC-1', valid_until: end, original_valid_until: before.auction.valid_until, server_time: T1 } })).toBe(after);
    expect(applyDetailEvent(before, { event: 'auction:extended', data: { auction_id: 'AUC-9', valid_until: end, original_valid_until: end, server_time: T1 } })).toBe(before);
  });

  it('the settle answer: sold lots’ leads win, a lead below the reserve is unsold, the auction is settled', () => {
    const d: DetailData = { ...data(), feed: [entry({ bid_id: 1 }), entry({ bid_id: 4, product_id: 'P-2', amount: 90, bidder: 'meera' })] };
    const after = detailReducer(d, {
      type: 'settled', auction: null,
      answer: { message: 'Auction settled successfully!', sold: [{ product_id: 'P-1', amount: 500 }], unsold: [{ id: 'P-2', reason: 'RESERVE_NOT_MET' }] },
    })!;
    expect(after.auction.status).toBe('settled');
    expect(after.products[0]).toMatchObject({ status: 'sold', highest_bid: 500 });
    expect(after.feed.map((f) => [f.bid_id, f.state])).toEqual([[1, 'won'], [4, 'unsold']]);
    expect(winnerOf(after.feed, 'P-1')).toBe('asha');
  });

  it('boughtNowOf: a lot sold before the settle, or a won bid marked buy_now', () => {
    const open = makeAdminAuction();
    const products = [makeProduct({ id: 'P-1', status: 'sold' }), makeProduct({ id: 'P-2' })];
    expect(boughtNowOf(open, products, [])).toEqual(['P-1']);
    const settled = makeAdminAuction({ status: 'settled', settled_at: T2 });
    expect(boughtNowOf(settled, products, [])).toEqual([]);
    expect(boughtNowOf(settled, products, [entry({ product_id: 'P-1', state: 'won', buy_now: true })])).toEqual(['P-1']);
    expect(toFeed('P-1', 'AUC-1', [{ bid_id: 9, auction_id: 'AUC-1', amount: 10, state: 'won', timestamp: T0, bidder: 'asha', buy_now: true }])[0]?.buy_now).toBe(true);
  });
});
