/**
 * Lot search (docs/catalogue.md#search) through the HTTP API on both stores: word stems, every word
 * required, name matches ranked first, edits searchable at once (the index is written in the same
 * transaction), filters (category with its subcategories, auction, price, buy-now, open or ended),
 * keyset pages without repeats or gaps while bids arrive, and the refusals (q over 200 characters, a
 * forged cursor). Public: no token needed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { bid, call, expectError, HOUR, makeApp, makeClock, richBidder, signUpAdmin, uniqueName } from '../../test/helpers.js';

let app: App;
afterEach(async () => { await app?.close(); });

interface Card { id: string; lot_number: number | null; name: string; highest_bid: number; bid_count: number; buy_now_price: number | null; category: { slug: string } | null; auction: { id: string; name: string } }
interface Page { items: Card[]; next_cursor: string | null; total: number }

async function search(query: string): Promise<Page> {
  const res = await call(app, 'GET', `/api/catalogue/lots${query === '' ? '' : `?${query}`}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Page>();
}
const ids = (p: Page) => p.items.map((i) => i.id);

/** Products (name, description, optional category and prices) put into one new auction; returns their ids in order. */
async function auctionOf(token: string, lots: { name: string; description?: string; category_id?: number; starting_price?: number; buy_now_price?: number }[], opts: { name?: string; endsIn?: number; now?: number } = {}) {
  const productIds: string[] = [];
  for (const lot of lots) {
    const id = uniqueName('LS');
    const res = await call(app, 'POST', '/api/admin/product', { id, description: 'Nothing to say', ...lot }, token);
    expect(res.statusCode, res.body).toBe(201);
    productIds.push(id);
  }
  const auctionId = uniqueName('LSA');
  const validUntil = new Date((opts.now ?? Date.now()) + (opts.endsIn ?? 2 * HOUR)).toISOString();
  const res = await call(app, 'POST', '/api/admin/auction', { id: auctionId, name: opts.name ?? 'Weekly sale', valid_until: validUntil, product_ids: productIds }, token);
  expect(res.statusCode, res.body).toBe(201);
  return { auctionId, productIds };
}

describe('lot search', () => {
  it('stems, every word required, name matches first, edits searchable at once; public', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [lamp, desk, clock, mention] } = await auctionOf(admin.token, [
      { name: 'Brass Lamp', description: 'A lamp for reading' },
      { name: 'Oak desk', description: 'Comes with a brass reading lamp' },
      { name: 'Mantel clock', description: 'Chimes on the hour' },
      { name: 'Tea set', description: 'Painted with a clock tower' },
    ], { name: 'Antiques of Jaipur' });

    expect(ids(await search('q=lamps')).sort()).toEqual([lamp, desk].sort());
    // Name matches rank above description matches.
    expect(ids(await search('q=lamps'))[0]).toBe(lamp);
    expect(ids(await search('q=clocks'))).toEqual([clock, mention]);
    // Every word is required (stems included).
    expect(ids(await search('q=reading%20desks'))).toEqual([desk]);
    expect(ids(await search('q=brass%20clock'))).toEqual([]);
    // The auction's name is searched too.
    expect(ids(await search('q=jaipur')).sort()).toEqual([lamp, desk, clock, mention].sort());
    expect((await search('q=lamps')).total).toBe(2);

    // An edit is searchable at once: the product's words and the auction's name.
    const edit = await call(app, 'PUT', `/api/admin/product/${clock!}`, { name: 'Mantel barometer', description: 'Reads the weather' }, admin.token);
    expect(edit.statusCode, edit.body).toBe(200);
    expect(ids(await search('q=clock'))).toEqual([mention]);
    expect(ids(await search('q=barometers'))).toEqual([clock]);
    const renamed = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Treasures of Udaipur', valid_until: new Date(Date.now() + HOUR).toISOString() }, admin.token);
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(ids(await search('q=jaipur'))).toEqual([]);
    expect(ids(await search('q=udaipur')).length).toBe(4);
    // A deleted lot leaves the index.
    expect((await call(app, 'DELETE', `/api/admin/product/${lamp!}`, undefined, admin.token)).statusCode).toBe(200);
    expect(ids(await search('q=lamp'))).toEqual([desk]);

    // Only stop words or symbols: an empty result, not an error. Too long: 400.
    expect(await search('q=the%20and%20of')).toEqual({ items: [], next_cursor: null, total: 0 });
    expect(await search(`q=${encodeURIComponent('%$#@! ***')}`)).toEqual({ items: [], next_cursor: null, total: 0 });
    expect(ids(await search(`q=${encodeURIComponent('"desk" OR NOT (x*')}`))).toEqual([]);
    expect(ids(await search(`q=${encodeURIComponent('desk*')}`))).toEqual([desk]);
    expectError(await call(app, 'GET', `/api/catalogue/lots?q=${'a'.repeat(201)}`), 400, 'VALIDATION');
    expect((await call(app, 'GET', `/api/catalogue/lots?q=${'a'.repeat(200)}`)).statusCode).toBe(200);
    // The card.
    const [card] = (await search('q=desk')).items;
    // Lot 1 was deleted before any bid, so the desk is Lot 1 now.
    expect(card).toMatchObject({ id: desk, lot_number: 1, name: 'Oak desk', highest_bid: 0, bid_count: 0, buy_now_price: null, category: null, auction: { id: auctionId, name: 'Treasures of Udaipur' } });
  });

  it('filters: category with its subcategories, auction, price, buy-now, open or ended; sorts', async () => {
    const clock = makeClock(Date.now());
    app = await makeApp({}, { now: clock.now });
    const admin = await signUpAdmin(app);
    const category = async (body: Record<string, unknown>) => (await call(app, 'POST', '/api/admin/categories', body, admin.token)).json<{ category: { id: number } }>().category.id;
    const home = await category({ name: 'Home' });
    const lamps = await category({ name: 'Lamps', parent_id: home });
    const art = await category({ name: 'Art' });
    const one = await auctionOf(admin.token, [
      { name: 'Lamp one', category_id: lamps, starting_price: 100 },
      { name: 'Rug', category_id: home, starting_price: 500, buy_now_price: 900 },
      { name: 'Painting', category_id: art, starting_price: 50 },
    ], { now: clock.t, endsIn: 3 * HOUR });
    const two = await auctionOf(admin.token, [{ name: 'Lamp two', category_id: lamps, starting_price: 10 }], { now: clock.t, endsIn: HOUR });
    const [lampOne, rug, painting] = one.productIds;
    const [lampTwo] = two.productIds;

    expect(ids(await search('category=home')).sort()).toEqual([lampOne, rug, lampTwo].sort());
    expect(ids(await search(`category=${lamps}`)).sort()).toEqual([lampOne, lampTwo].sort());
    expect(ids(await search('category=nothing-here'))).toEqual([]);
    expect(ids(await search(`auction_id=${two.auctionId}`))).toEqual([lampTwo]);
    expect(ids(await search('min_price=50&max_price=100')).sort()).toEqual([lampOne, painting].sort());
    expect(ids(await search('buy_now=1'))).toEqual([rug]);
    // Sorts: ending soonest first (then id), prices, bids.
    expect(ids(await search('sort=ending'))[0]).toBe(lampTwo);
    expect(ids(await search('sort=price_asc'))).toEqual([lampTwo, painting, lampOne, rug]);
    expect(ids(await search('sort=price_desc'))).toEqual([rug, lampOne, painting, lampTwo]);
    const bidder = await richBidder(app, 10_000, [one.auctionId]);
    expect((await bid(app, bidder.token, painting!, 600)).statusCode).toBe(201);
    expect(ids(await search('sort=bids'))[0]).toBe(painting);
    expect(ids(await search('sort=price_desc'))[0]).toBe(painting);
    // A bid on the rug takes its buy-now away (no reserve).
    expect((await bid(app, bidder.token, rug!, 500)).statusCode).toBe(201);
    expect(ids(await search('buy_now=1'))).toEqual([]);

    clock.advance(HOUR + 1);
    expect(ids(await search('status=ended'))).toEqual([lampTwo]);
    expect(ids(await search('q=lamp'))).toEqual([lampOne]);
    expect(ids(await search('q=lamp&status=ended'))).toEqual([lampTwo]);

    for (const bad of ['status=closed', 'sort=random', 'min_price=1.234', 'min_price=-1', 'buy_now=yes', 'limit=0', 'limit=101', 'cursor=!!', 'cursor=bm9wZQ']) {
      expectError(await call(app, 'GET', `/api/catalogue/lots?${bad}`), 400, 'VALIDATION');
    }
  });

  it('keyset pages: every lot once, in order, while bids arrive between pages; a cursor of another sort is refused', async () => {
    app = await makeApp();
    const admin = await signUpAdmin(app);
    const lots = Array.from({ length: 23 }, (_, i) => ({ name: `Silver spoon ${i}`, description: i % 2 ? 'A spoon of silver' : 'Plain', starting_price: 10 + i }));
    const a = await auctionOf(admin.token, lots.slice(0, 12), { endsIn: 2 * HOUR });
    const b = await auctionOf(admin.token, lots.slice(12), { endsIn: 3 * HOUR });
    const all = [...a.productIds, ...b.productIds];
    let price = 1000;

    for (const query of ['q=spoons&sort=relevance', 'sort=ending', 'q=silver&sort=ending', 'sort=bids&q=spoon']) {
      // A bidder of its own per run: each outbids the last run's on the lots they share.
      const bidder = await richBidder(app, 100_000, [a.auctionId, b.auctionId]);
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page: Page = await search(`${query}&limit=5${cursor === null ? '' : `&cursor=${cursor}`}`);
        expect(page.total).toBe(23);
        seen.push(...ids(page));
        cursor = page.next_cursor;
        pages += 1;
        // Bids arrive between pages, on lots already read and lots still to come (relevance and
        // ending orders do not move with bids).
        if (!query.startsWith('sort=bids')) {
          for (const id of [all[pages]!, all[22 - pages]!]) expect((await bid(app, bidder.token, id, (price += 10))).statusCode).toBe(201);
        }
      } while (cursor !== null);
      expect(pages).toBe(5);
      expect(new Set(seen).size, query).toBe(seen.length);
      expect([...seen].sort(), query).toEqual([...all].sort());
    }
    const first = await search('sort=ending&limit=5');
    expectError(await call(app, 'GET', `/api/catalogue/lots?sort=price_asc&limit=5&cursor=${first.next_cursor!}`), 400, 'VALIDATION');
    const forged = Buffer.from(JSON.stringify([1, 'ending', 'x', 'y'])).toString('base64url');
    expectError(await call(app, 'GET', `/api/catalogue/lots?sort=ending&cursor=${forged}`), 400, 'VALIDATION');
  });
});
