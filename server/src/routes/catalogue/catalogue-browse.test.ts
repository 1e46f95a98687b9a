/**
 * Paged auctions (docs/catalogue.md#paged-auctions) through the HTTP API on both stores: tabs (active,
 * ending within 24 h, ended) with counts under the same filters, words, category and registered
 * filters, sorts, keyset pages without repeats or gaps, public (a bidder's token adds `registered`).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { bid, call, createAuction, expectError, HOUR, makeApp, makeClock, richBidder, signUpAdmin, signUpUser } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface Card { id: string; name: string; status: string; product_count: number; bid_count: number; highest_bid: number; registered: boolean; cover: unknown }
interface Page { items: Card[]; next_cursor: string | null; counts: { active: number; ending: number; ended: number } }

async function browse(query: string, token?: string): Promise<Page> {
  const res = await call(app, 'GET', `/api/catalogue/auctions${query === '' ? '' : `?${query}`}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
const ids = (p: Page) => p.items.map((i) => i.id);

describe('paged auctions', () => {
  it('tabs and counts, filters, sorts, registered; public', async () => {
    const clock = makeClock(Date.now());
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    // Created a second apart, so that `newest` has an order of its own.
    const soon = await createAuction(app, admin.token, { products: 2, now: clock.t, endsIn: 2 * HOUR });
    clock.advance(1000);
    const later = await createAuction(app, admin.token, { products: 1, now: clock.t, endsIn: 48 * HOUR });
    clock.advance(1000);
    const short = await createAuction(app, admin.token, { products: 1, now: clock.t, endsIn: HOUR });
    const cat = (await call(app, 'POST', '/api/admin/categories', { name: 'Clocks' }, admin.token)).json<{ category: { id: number } }>().category.id;
    const edit = await call(app, 'PUT', `/api/admin/product/${later.productIds[0]!}`, { name: 'Grandfather clock', description: 'Tall', category_id: cat }, admin.token);
    expect(edit.statusCode, edit.body).toBe(200);

    const all = await browse('');
    expect(ids(all)).toEqual([short.auctionId, soon.auctionId, later.auctionId]);
    expect(all.counts).toEqual({ active: 3, ending: 2, ended: 0 });
    expect(all.items[1]).toMatchObject({ status: 'active', product_count: 2, bid_count: 0, highest_bid: 0, registered: false, cover: null });
    expect(ids(await browse('tab=ending'))).toEqual([short.auctionId, soon.auctionId]);
    expect(ids(await browse('sort=newest'))).toEqual([short.auctionId, later.auctionId, soon.auctionId]);
    const clockSearch = await browse('q=clocks');
    expect(ids(clockSearch)).toEqual([later.auctionId]);
    expect(clockSearch.counts).toEqual({ active: 1, ending: 0, ended: 0 });
    expect(ids(await browse('category=clocks'))).toEqual([later.auctionId]);
    expect(await browse('q=the')).toEqual({ items: [], next_cursor: null, counts: { active: 0, ending: 0, ended: 0 } });

    const bidder = await richBidder(app, 1000, [soon.auctionId]);
    expect((await bid(app, bidder.token, soon.productIds[1]!, 25)).statusCode).toBe(201);
    expect(ids(await browse('sort=bids'))[0]).toBe(soon.auctionId);
    const mine = await browse('registered=1', bidder.token);
    expect(ids(mine)).toEqual([soon.auctionId]);
    expect(mine.items[0]).toMatchObject({ registered: true, bid_count: 1, highest_bid: 25 });
    expect((await browse('', bidder.token)).items.map((c) => c.registered)).toEqual([false, true, false]);
    // No bidder's token: nothing is registered; a bad token is no refusal on a public read.
    expect(ids(await browse('registered=1'))).toEqual([]);
    expect(ids(await browse('', 'not-a-token')).length).toBe(3);
    const other = await signUpUser(app);
    expect(ids(await browse('registered=1', other.token))).toEqual([]);

    clock.advance(HOUR + 1);
    const ended = await browse('tab=ended');
    expect(ids(ended)).toEqual([short.auctionId]);
    expect(ended.items[0]!.status).toBe('ended');
    expect(ended.counts).toEqual({ active: 2, ending: 1, ended: 1 });

    for (const bad of ['tab=soon', 'sort=price', 'registered=yes', 'limit=0', 'cursor=xyz', `q=${'a'.repeat(201)}`]) {
      expectError(await call(app, 'GET', `/api/catalogue/auctions?${bad}`), 400, 'VALIDATION');
    }
  });

  it('keyset pages: every auction once while bids arrive; a cursor of another tab or sort is refused', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const made: { auctionId: string; productIds: string[] }[] = [];
    for (let i = 0; i < 11; i++) made.push(await createAuction(app, admin.token, { products: 1, endsIn: (2 + (i % 4)) * HOUR }));
    const bidder = await richBidder(app, 100_000, made.map((m) => m.auctionId));
    for (const sort of ['ending', 'newest']) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let n = 0;
      do {
        const page: Page = await browse(`sort=${sort}&limit=3${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(page.counts.active).toBe(11);
        seen.push(...ids(page));
        cursor = page.next_cursor;
        n += 1;
        expect((await bid(app, bidder.token, made[(n * 3 + (sort === 'ending' ? 0 : 1)) % 11]!.productIds[0]!, 10 * n + (sort === 'ending' ? 0 : 100))).statusCode).toBe(201);
      } while (cursor !== null);
      expect(n).toBe(4);
      expect(new Set(seen).size).toBe(11);
      expect([...seen].sort()).toEqual(made.map((m) => m.auctionId).sort());
    }
    const first = await browse('limit=3');
    expectError(await call(app, 'GET', `/api/catalogue/auctions?tab=ending&limit=3&cursor=${first.next_cursor!}`), 400, 'VALIDATION');
    expectError(await call(app, 'GET', `/api/catalogue/auctions?sort=newest&limit=3&cursor=${first.next_cursor!}`), 400, 'VALIDATION');
  });
});
