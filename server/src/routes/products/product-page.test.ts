/** The lot page, GET /api/products/{id} (docs/photos.md#the-lot-page): the product, its auction and its history. */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../context.js';
import { bid, call, createAuction, createProducts, expectError, makeApp, makeClock, richBidder, signUpAdmin } from '../../test/helpers.js';
import { addPhoto } from '../../test/photo-helpers.js';

interface Entry { bid_id: number; amount: number; status: string; state: string; timestamp: string; bidder: string; auto: boolean }
interface Lot {
  id: string; highest_bid: number; my_status: string | null; my_max: number | null; reserve_price?: number | null;
  images: { id: number }[]; auction: { id: string; status: string; registered: boolean } | null; bids: Entry[];
}

const clock = makeClock();
let app: App;
let admin: Awaited<ReturnType<typeof signUpAdmin>>;
let otherAdmin: Awaited<ReturnType<typeof signUpAdmin>>;
let asha: Awaited<ReturnType<typeof richBidder>>;
let ravi: Awaited<ReturnType<typeof richBidder>>;
let meera: Awaited<ReturnType<typeof richBidder>>;
let lot: string;
const ids: Record<string, number> = {};

beforeAll(async () => {
  app = await makeApp({}, { now: clock.now });
  admin = await signUpAdmin(app);
  otherAdmin = await signUpAdmin(app);
  const { auctionId, productIds: [p] } = await createAuction(app, admin.token, { now: clock.t });
  lot = p!;
  [asha, ravi, meera] = [await richBidder(app, 5000, [auctionId]), await richBidder(app, 5000, [auctionId]), await richBidder(app, 5000, [auctionId])];
  const step = async (name: string, res: Promise<LightMyRequestResponse>) => {
    clock.advance(1000);
    const r = await res;
    expect(r.statusCode, r.body).toBe(201);
    ids[name] = r.json<{ bid: { bid_id: number } }>().bid.bid_id;
  };
  // Asha bids 100; Ravi's maximum of 500 leads at 101; Meera's 200 is answered at once (Ravi 201);
  // Meera's refused 150 is no part of the history; Asha's 300 is answered too (Ravi 301).
  await step('asha100', bid(app, asha.token, lot, 100));
  await step('ravi', call(app, 'POST', '/api/bid', { product_id: lot, max_amount: 500 }, ravi.token));
  await step('meera200', bid(app, meera.token, lot, 200));
  clock.advance(1000);
  expect((await bid(app, meera.token, lot, 150)).statusCode).toBe(409);
  await step('asha300', bid(app, asha.token, lot, 300));
});
afterAll(async () => { await app.close(); });

const page = async (token: string | undefined, id = lot) => {
  const res = await call(app, 'GET', `/api/products/${encodeURIComponent(id)}`, undefined, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Lot>();
};
const shape = (bids: Entry[]) => bids.map((b) => [b.bidder, b.amount, b.state, b.auto, b.bid_id]);

describe('GET /api/products/{id}', () => {
  it('a bidder sees the product with their own standing, its auction and the history highest first, automatic raises included', async () => {
    const seen = await page(meera.token);
    expect(seen).toMatchObject({ id: lot, highest_bid: 301, my_status: 'outbid', my_max: null, auction: { status: 'active', registered: true } });
    expect(seen.reserve_price).toBeUndefined();
    // Ravi's maximum appears at the price it was placed at (101), then at each automatic raise.
    expect(shape(seen.bids)).toEqual([
      ['Bidder 2', 301, 'success', true, ids.ravi],
      ['Bidder 1', 300, 'outbid', false, ids.asha300],
      ['Bidder 2', 201, 'success', true, ids.ravi],
      ['You', 200, 'outbid', false, ids.meera200],
      ['Bidder 2', 101, 'success', false, ids.ravi],
      ['Bidder 1', 100, 'outbid', false, ids.asha100],
    ]);
    // Each entry has its own time: the raise to 201 when Meera bid, to 301 when Asha did.
    const times = seen.bids.map((b) => Date.parse(b.timestamp));
    expect(times[0]).toBe(times[1]);
    expect(times[2]).toBe(times[3]);
    expect(times[4]).toBeLessThan(times[2]!);
  });

  it('aliases are the same for every viewer; the caller reads "You"', async () => {
    expect(shape((await page(asha.token)).bids).map((e) => e[0])).toEqual(['Bidder 2', 'You', 'Bidder 2', 'Bidder 3', 'Bidder 2', 'You']);
    const leader = await page(ravi.token);
    expect(leader).toMatchObject({ my_status: 'leading', my_max: 500 });
    expect(shape(leader.bids).map((e) => e[0])).toEqual(['You', 'Bidder 1', 'You', 'Bidder 3', 'You', 'Bidder 1']);
  });

  it('the auction’s own admin sees usernames (and the reserve); another admin sees aliases', async () => {
    const own = await page(admin.token);
    expect(own.bids.map((b) => b.bidder)).toEqual([ravi.username, asha.username, ravi.username, meera.username, ravi.username, asha.username]);
    expect(own.reserve_price).toBeNull();
    expect(own.my_status).toBeNull();
    const other = await page(otherAdmin.token);
    expect(other.bids.map((b) => b.bidder)).toEqual(['Bidder 2', 'Bidder 1', 'Bidder 2', 'Bidder 3', 'Bidder 2', 'Bidder 1']);
    expect(other.reserve_price).toBeUndefined();
  });

  it('an unassigned product (a draft): its admin sees it with no auction, no history and its photos; anyone else is told it does not exist', async () => {
    const [p] = await createProducts(app, admin.token, 1);
    const photo = await addPhoto(app, admin.token, p!);
    const seen = await page(admin.token, p);
    expect(seen).toMatchObject({ id: p, auction: null, bids: [] });
    expect(seen.images.map((i) => i.id)).toEqual([photo.id]);
    // A bidder or another admin who knows or guesses its id reads nothing of it, by any route.
    for (const token of [asha.token, otherAdmin.token]) {
      expectError(await call(app, 'GET', `/api/products/${p!}`, undefined, token), 404, 'NOT_FOUND');
      expectError(await call(app, 'GET', `/api/products/${p!}/bids`, undefined, token), 404, 'NOT_FOUND');
      for (const route of ['bids', 'highest-bid', 'time-left']) {
        expectError(await call(app, 'GET', `/api/${route}?product_key=${p!}`, undefined, token), 404, 'NOT_FOUND');
      }
    }
    expectError(await call(app, 'PUT', `/api/saved/${p!}`, undefined, asha.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', `/api/saved/${p!}`, undefined, asha.token), 404, 'NOT_FOUND');
    // Its own admin: the spec's reads answer as before (a product in no auction has no time left).
    expect((await call(app, 'GET', `/api/highest-bid?product_key=${p!}`, undefined, admin.token)).json()).toEqual({ highest_bid: 0 });
    expectError(await call(app, 'GET', `/api/time-left?product_key=${p!}`, undefined, admin.token), 409, 'PRODUCT_NOT_AVAILABLE');
  });

  it('404 for an unknown or deleted product', async () => {
    expectError(await call(app, 'GET', '/api/products/no-such-lot', undefined, asha.token), 404, 'NOT_FOUND');
    const [p] = await createProducts(app, admin.token, 1);
    expect((await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token)).statusCode).toBe(200);
    expectError(await call(app, 'GET', `/api/products/${p}`, undefined, asha.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', `/api/products/${p}`), 404, 'NOT_FOUND');
  });

  it('a visitor with no token (a shared lot link) reads the lot as the public sees it: aliases, no standing, no reserve; a draft stays hidden', async () => {
    for (const token of [undefined, 'not-a-token']) {
      const seen = await page(token);
      expect(seen).toMatchObject({ id: lot, highest_bid: 301, my_status: null, my_max: null, auction: { status: 'active', registered: false } });
      expect(seen.reserve_price).toBeUndefined();
      expect(new Set(seen.bids.map((b) => b.bidder))).toEqual(new Set(['Bidder 1', 'Bidder 2', 'Bidder 3']));
      const more = await call(app, 'GET', `/api/products/${encodeURIComponent(lot)}/bids?limit=2`, undefined, token);
      expect(more.statusCode, more.body).toBe(200);
      expect(more.json<{ bids: Entry[] }>().bids.map((b) => b.bidder)).toEqual(['Bidder 2', 'Bidder 1']);
    }
    const [draft] = await createProducts(app, admin.token, 1);
    expectError(await call(app, 'GET', `/api/products/${draft}`), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', `/api/products/${draft}/bids`), 404, 'NOT_FOUND');
  });

  it('a visitor reads an auction’s lots as the public sees them: prices and counts, no standing, no saved mark, no reserve', async () => {
    const auctionId = (await page(asha.token)).auction!.id;
    for (const token of [undefined, 'not-a-token']) {
      const res = await call(app, 'GET', `/api/auctions/${encodeURIComponent(auctionId)}/products`, undefined, token);
      expect(res.statusCode, res.body).toBe(200);
      const [seen] = res.json<Array<Lot & { bid_count: number; saved?: boolean }>>();
      expect(seen).toMatchObject({ id: lot, highest_bid: 301, bid_count: 6, my_status: null, my_max: null });
      expect(seen!.reserve_price).toBeUndefined();
      expect(seen!.saved).toBeUndefined();
    }
    // The bidder with the lead still reads their own standing there.
    const mine = (await call(app, 'GET', `/api/auctions/${encodeURIComponent(auctionId)}/products`, undefined, ravi.token)).json<Lot[]>();
    expect(mine[0]).toMatchObject({ my_status: 'leading', my_max: 500 });
    expectError(await call(app, 'GET', '/api/auctions/NO-SUCH-AUCTION/products'), 404, 'NOT_FOUND');
  });

  it('after settlement: the winner reads won, the others lost', async () => {
    clock.advance(3 * 3_600_000);
    const auctionId = (await page(asha.token)).auction!.id;
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    expect(await page(ravi.token)).toMatchObject({ my_status: 'won', auction: { status: 'settled' } });
    const lost = await page(asha.token);
    expect(lost.my_status).toBe('lost');
    expect(lost.bids[0]).toMatchObject({ bidder: 'Bidder 2', amount: 301, status: 'success', state: 'won' });
  });
});
