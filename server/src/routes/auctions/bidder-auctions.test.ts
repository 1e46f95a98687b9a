/**
 * The bidder's side of the API, auctions: browsing auctions and their products, registering for
 * them, and which routes each role may call.
 * Shared setup (a fresh app per test on a movable clock) in test/bidder-helpers.ts.
 */
import type { InjectOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HOUR, bid, call, createProducts, expectError, richBidder, signUpAdmin, signUpUser, uniqueName } from '../../test/helpers.js';
import { app, auction, auctionOver, clock, iso, settle, withApp } from '../../test/bidder-helpers.js';
import { addPhoto, picture, type UploadedPhoto } from '../../test/photo-helpers.js';

withApp();

const register = (token: string, auctionId: string) => call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, token);

describe('GET /api/auctions', () => {
  it('lists every auction newest first with the exact shape; registrations hold at most the caller’s own id', async () => {
    const admin = await signUpAdmin(app);
    const older = await auction(admin.token, { products: 2, endsIn: 3 * HOUR });
    clock.advance(1000);
    const newer = await auction(admin.token, { products: 1, endsIn: HOUR });
    const asha = await richBidder(app, 0, [older.auctionId]);
    const ravi = await richBidder(app, 0, [older.auctionId, newer.auctionId]);

    const res = await call(app, 'GET', '/api/auctions', undefined, asha.token);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list.map((a: { id: string }) => a.id)).toEqual([newer.auctionId, older.auctionId]);
    // Created without rules: flat steps, soft close as configured (off in tests), the default cap, not extended.
    const rules = (validUntil: string) => ({ original_valid_until: validUntil, increment_rule: 'flat', increment_amount: 1, increment_tiers: [], cancel_policy: 'until_end', soft_close_s: 0, max_extension_s: 3600, extended: false, buyer_premium_pct: 0, premium_gst_pct: 18 });
    expect(list[1]).toEqual({
      id: older.auctionId, name: `Auction ${older.auctionId}`, valid_until: iso(clock.t - 1000 + 3 * HOUR),
      product_ids: older.productIds, registrations: [asha.user.id], registered: true, product_count: 2, status: 'active',
      ...rules(iso(clock.t - 1000 + 3 * HOUR)), cover: null, highest_bid: 0, bid_count: 0,
    });
    // Ravi registered for the newer one; Asha must not see his id.
    expect(list[0]).toEqual({
      id: newer.auctionId, name: `Auction ${newer.auctionId}`, valid_until: iso(clock.t + HOUR),
      product_ids: newer.productIds, registrations: [], registered: false, product_count: 1, status: 'active',
      ...rules(iso(clock.t + HOUR)), cover: null, highest_bid: 0, bid_count: 0,
    });
    const ravis = (await call(app, 'GET', '/api/auctions', undefined, ravi.token)).json();
    expect(ravis.map((a: { registrations: number[] }) => a.registrations)).toEqual([[ravi.user.id], [ravi.user.id]]);
  });

  it('shows status active, ended and settled by the clock and settlement', async () => {
    const admin = await signUpAdmin(app);
    const short = await auction(admin.token, { endsIn: HOUR });
    const long = await auction(admin.token, { endsIn: 5 * HOUR });
    const settled = await auction(admin.token, { endsIn: 5 * HOUR });
    const u = await signUpUser(app);
    expect((await settle(admin.token, settled.auctionId)).statusCode).toBe(200);
    clock.advance(HOUR);
    const byId = Object.fromEntries((await call(app, 'GET', '/api/auctions', undefined, u.token)).json()
      .map((a: { id: string; status: string }) => [a.id, a.status]));
    expect(byId).toEqual({ [short.auctionId]: 'ended', [long.auctionId]: 'active', [settled.auctionId]: 'settled' });
  });

  it('admins may call it too and see no registrations', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const a = await auction(admin.token);
    await richBidder(app, 0, [a.auctionId]);
    const res = await call(app, 'GET', '/api/auctions', undefined, other.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ id: a.auctionId, registrations: [], registered: false, status: 'active' })]);
  });

  it('401 without a token or with a bad one', async () => {
    expectError(await call(app, 'GET', '/api/auctions'), 401, 'UNAUTHENTICATED');
    expectError(await call(app, 'GET', '/api/auctions', undefined, 'not-a-token'), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/auctions: Browse cards: the cover, the highest bid, the bid count', () => {
  type Card = { id: string; cover: { url: string; thumb_url: string } | null; highest_bid: number; bid_count: number; product_ids: string[] };
  const cardOf = async (token: string, auctionId: string) =>
    (await call(app, 'GET', '/api/auctions', undefined, token)).json<Card[]>().find((a) => a.id === auctionId)!;
  const coverOf = (photo: UploadedPhoto) => ({ url: photo.url, thumb_url: photo.thumb_url });
  const colour = (r: number) => picture('png', 32, 24, { r, g: 10, b: 10 });

  it('the cover is the first photo of the first product, in the auction’s product order, that has one; uploads, orders and deletes show at once', async () => {
    const admin = await signUpAdmin(app);
    // Created in the same millisecond: the product order is the order of creation.
    const { auctionId, productIds: [p0, p1, p2] } = await auction(admin.token, { products: 3 });
    const elsewhere = await auction(admin.token);
    const [loose] = await createProducts(app, admin.token, 1);
    const u = await signUpUser(app);
    expect((await cardOf(u.token, auctionId)).cover).toBeNull();

    // Photos of an unassigned product or of another auction's are not this auction's cover.
    await addPhoto(app, admin.token, loose!, await colour(1));
    const theirs = await addPhoto(app, admin.token, elsewhere.productIds[0]!, await colour(2));
    expect((await cardOf(u.token, auctionId)).cover).toBeNull();
    expect((await cardOf(u.token, elsewhere.auctionId)).cover).toEqual(coverOf(theirs));

    // The second product has the first photo: it is the cover until the first product has one.
    const x1 = await addPhoto(app, admin.token, p1!, await colour(3));
    expect(x1.url).not.toBe(x1.thumb_url);
    expect((await cardOf(u.token, auctionId)).cover).toEqual(coverOf(x1));
    await addPhoto(app, admin.token, p2!, await colour(4));
    await addPhoto(app, admin.token, p1!, await colour(5));
    expect((await cardOf(u.token, auctionId)).cover).toEqual(coverOf(x1));
    const y1 = await addPhoto(app, admin.token, p0!, await colour(6));
    const y2 = await addPhoto(app, admin.token, p0!, await colour(7));
    expect((await cardOf(u.token, auctionId)).cover).toEqual(coverOf(y1));

    // Reordered: the new first photo is the cover.
    const ordered = await call(app, 'PUT', `/api/admin/products/${p0}/images/order`, { ids: [y2.id, y1.id] }, admin.token);
    expect(ordered.statusCode, ordered.body).toBe(200);
    expect((await cardOf(u.token, auctionId)).cover).toEqual(coverOf(y2));
    // The lot page's auction says the same.
    expect((await call(app, 'GET', `/api/products/${p2}`, undefined, u.token)).json<{ auction: Card }>().auction.cover).toEqual(coverOf(y2));

    // Deleted: the next photo, then the next product's cover.
    expect((await call(app, 'DELETE', `/api/admin/products/${p0}/images/${y2.id}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await cardOf(u.token, auctionId)).cover).toEqual(coverOf(y1));
    expect((await call(app, 'DELETE', `/api/admin/products/${p0}/images/${y1.id}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await cardOf(u.token, auctionId)).cover).toEqual(coverOf(x1));
    // A deleted product's photos no longer count.
    expect((await call(app, 'DELETE', `/api/admin/product/${p1}`, undefined, admin.token)).statusCode).toBe(200);
    const card = await cardOf(u.token, auctionId);
    expect(card.product_ids).toEqual([p0, p2]);
    expect(card.cover).toEqual({ url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp$/), thumb_url: expect.stringMatching(/^\/media\/[0-9a-f]{64}\.webp$/) });
    const p2Photos = (await call(app, 'GET', `/api/products/${p2}`, undefined, u.token)).json<{ images: { url: string; thumb_url: string }[] }>().images;
    expect(card.cover).toEqual({ url: p2Photos[0]!.url, thumb_url: p2Photos[0]!.thumb_url });
  });

  it('highest_bid is the highest current price among the lots and bid_count their sum: after bids, rollbacks, a purchase and settlement', async () => {
    const admin = await signUpAdmin(app);
    const product = async (pricing: object = {}) => {
      const id = uniqueName('BP');
      const res = await call(app, 'POST', '/api/admin/product', { id, name: `Lot ${id}`, description: 'A lot', ...pricing }, admin.token);
      expect(res.statusCode, res.body).toBe(201);
      return id;
    };
    const [p0, p1, p2] = [await product(), await product(), await product({ buy_now_price: 1000 })];
    const auctionId = await auctionOver(admin.token, [p0, p1, p2]);
    const other = await auction(admin.token);
    const asha = await richBidder(app, 5000, [auctionId, other.auctionId]);
    const ravi = await richBidder(app, 5000, [auctionId]);
    expect(await cardOf(asha.token, auctionId)).toMatchObject({ highest_bid: 0, bid_count: 0 });

    const placed = async (token: string, productId: string, amount: number) => {
      const res = await bid(app, token, productId, amount);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ bid: { bid_id: number } }>().bid.bid_id;
    };
    await placed(asha.token, p0, 300);
    const ravis0 = await placed(ravi.token, p0, 350);
    const ravis1 = await placed(ravi.token, p1, 450.5);
    // A refused bid is not counted; another auction's bids are not this one's.
    expectError(await bid(app, asha.token, p0, 100), 409, 'BID_TOO_LOW');
    await placed(asha.token, other.productIds[0]!, 4000);
    // Prices are re-read once the list is a second old (cache/auction-list.ts).
    clock.advance(1000);
    const sumOfLots = async () => (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, asha.token)).json<{ bid_count: number }[]>()
      .reduce((n, p) => n + p.bid_count, 0);
    expect(await cardOf(asha.token, auctionId)).toMatchObject({ highest_bid: 450.5, bid_count: 3 });
    expect(await sumOfLots()).toBe(3);
    expect(await cardOf(asha.token, other.auctionId)).toMatchObject({ highest_bid: 4000, bid_count: 1 });

    // Ravi cancels his lead on p1 (no one else bid there), then on p0 (Asha's 300 leads again).
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: ravis1 }, ravi.token)).statusCode).toBe(200);
    clock.advance(1000);
    // A cancelled bid leaves the count (bid_count counts accepted bids and automatic raises, not cancelled ones).
    expect(await cardOf(asha.token, auctionId)).toMatchObject({ highest_bid: 350, bid_count: 2 });
    expect(await sumOfLots()).toBe(2);
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: ravis0 }, ravi.token)).statusCode).toBe(200);
    clock.advance(1000);
    expect(await cardOf(asha.token, auctionId)).toMatchObject({ highest_bid: 300, bid_count: 1 });

    // Bought at its buy-now price: the sold price is the highest.
    const bought = await call(app, 'POST', '/api/buy-now', { product_id: p2 }, ravi.token);
    expect(bought.statusCode, bought.body).toBe(201);
    clock.advance(1000);
    expect(await cardOf(asha.token, auctionId)).toMatchObject({ highest_bid: 1000, bid_count: 2 });
    expect(await sumOfLots()).toBe(2);

    // Settled: p0 sold to Asha at 300, p2 stays sold at 1000, p1 (no leading bid) goes back unassigned
    // with its cancelled bid.
    clock.advance(2 * HOUR);
    expect((await settle(admin.token, auctionId)).statusCode).toBe(200);
    expect(await cardOf(asha.token, auctionId)).toMatchObject({ product_ids: [p0, p2], highest_bid: 1000, bid_count: 2 });
    expect(await sumOfLots()).toBe(2);
  });
});

describe('GET /api/auctions/{id}/products', () => {
  it('returns the products with highest bid and a bid count that ignores failed bids', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p0, p1] } = await auction(admin.token, { products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, asha.token, p0!, 250.5)).statusCode).toBe(201);
    expectError(await bid(app, asha.token, p0!, 100), 409, 'BID_TOO_LOW');

    const res = await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, asha.token);
    expect(res.statusCode).toBe(200);
    // No pricing set (flat ₹1 steps, no reserve, no buy-now); Asha leads p0 with a plain bid and never bid on p1; no reserve_price for a bidder.
    const unpriced = { starting_price: 0, reserve_met: null, buy_now_price: null, my_max: null, images: [], saved: false, category: null, gst_pct: 0, buyer_premium_pct: 0, premium_gst_pct: 18 };
    expect(res.json()).toEqual([
      {
        id: p0, name: `Product ${p0}`, description: `Description of ${p0}`, status: 'available', auction_id: auctionId, highest_bid: 250.5, bid_count: 1, version: 1,
        ...unpriced, min_next_bid: 251.5, min_next_bid_all_in: 251.5, my_status: 'leading', lot_number: 1,
      },
      {
        id: p1, name: `Product ${p1}`, description: `Description of ${p1}`, status: 'available', auction_id: auctionId, highest_bid: 0, bid_count: 0, version: 0,
        ...unpriced, min_next_bid: 1, min_next_bid_all_in: 1, my_status: null, lot_number: 2,
      },
    ]);
    expect((await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, admin.token)).statusCode).toBe(200);
  });

  it('404 for an unknown auction, with a token or without (an auction’s lots are public, as its lot pages are)', async () => {
    const u = await signUpUser(app);
    expectError(await call(app, 'GET', '/api/auctions/nope/products', undefined, u.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', '/api/auctions/nope/products'), 404, 'NOT_FOUND');
  });
});

describe('POST /api/auctions/register', () => {
  it('registers once and is idempotent', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await auction(admin.token);
    const u = await signUpUser(app);
    const first = await register(u.token, auctionId);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: 'Successfully registered for auction!' });
    const again = await register(u.token, auctionId);
    expect(again.statusCode).toBe(200);
    expect(typeof again.json().message).toBe('string');
    const mine = (await call(app, 'GET', '/api/my_auctions', undefined, u.token)).json();
    expect(mine.user_details.auctions).toEqual([auctionId]);
  });

  it('404 for an unknown auction; 400 without auction_id', async () => {
    const u = await signUpUser(app);
    expectError(await register(u.token, 'no-such-auction'), 404, 'NOT_FOUND');
    expect(expectError(await call(app, 'POST', '/api/auctions/register', {}, u.token), 400, 'VALIDATION').field).toBe('auction_id');
    expectError(await call(app, 'POST', '/api/auctions/register', { auction_id: 42 }, u.token), 400, 'VALIDATION');
  });

  it('409 AUCTION_ENDED from the end on (now ≥ valid_until), 409 AUCTION_SETTLED once settled', async () => {
    const admin = await signUpAdmin(app);
    const ending = await auction(admin.token, { endsIn: HOUR });
    const settled = await auction(admin.token, { endsIn: 5 * HOUR });
    const u = await signUpUser(app);
    clock.advance(HOUR - 1);
    expect((await register(u.token, ending.auctionId)).statusCode).toBe(200);
    const late = await signUpUser(app);
    clock.advance(1);
    expectError(await register(late.token, ending.auctionId), 409, 'AUCTION_ENDED');
    expect((await settle(admin.token, settled.auctionId)).statusCode).toBe(200);
    expectError(await register(late.token, settled.auctionId), 409, 'AUCTION_SETTLED');
    expect((await call(app, 'GET', '/api/my_auctions', undefined, late.token)).json().user_details.auctions).toEqual([]);
  });

  it('403 for an admin token, 401 without one', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await auction(admin.token);
    expectError(await register(admin.token, auctionId), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/my_auctions', () => {
  it('returns the caller and the ids of the auctions they registered for', async () => {
    const admin = await signUpAdmin(app);
    const a1 = await auction(admin.token);
    clock.advance(1000);
    const a2 = await auction(admin.token);
    await auction(admin.token);
    const u = await richBidder(app, 0, [a1.auctionId, a2.auctionId]);
    const res = await call(app, 'GET', '/api/my_auctions', undefined, u.token);
    expect(res.statusCode).toBe(200);
    const { user_details } = res.json();
    expect(user_details).toEqual({ id: u.user.id, name: `Name ${u.username}`, username: u.username, mobile_number: '9876543210', auctions: expect.any(Array) });
    expect([...user_details.auctions].sort()).toEqual([a1.auctionId, a2.auctionId].sort());
  });

  it('403 for an admin, 401 without a token', async () => {
    const admin = await signUpAdmin(app);
    expectError(await call(app, 'GET', '/api/my_auctions', undefined, admin.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'GET', '/api/my_auctions'), 401, 'UNAUTHENTICATED');
  });
});

describe('roles and authentication', () => {
  const userRoutes: [InjectOptions['method'], string, unknown][] = [
    ['POST', '/api/auctions/register', { auction_id: 'x' }],
    ['GET', '/api/my_auctions', undefined],
    ['POST', '/api/bid', { product_id: 'x', bid_amount: 100 }],
    ['GET', '/api/user-bids', undefined],
    ['GET', '/api/user-bids/auction/x', undefined],
    ['POST', '/api/wallet', {}],
    ['POST', '/api/wallet/topup', { amount: 100 }],
    ['GET', '/api/wallet/transactions', undefined],
    ['POST', '/api/rollback-bid', { bid_id: 1 }],
  ];
  const anyRoutes: [InjectOptions['method'], string, unknown][] = [
    ['GET', '/api/auctions', undefined],
    ['GET', '/api/bids?product_key=x', undefined],
    ['GET', '/api/highest-bid?product_key=x', undefined],
    ['GET', '/api/time-left?product_key=x', undefined],
  ];

  it('user routes refuse an admin token with 403 FORBIDDEN', async () => {
    const admin = await signUpAdmin(app);
    for (const [method, url, body] of userRoutes) {
      const res = await call(app, method, url, body, admin.token);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expectError(res, 403, 'FORBIDDEN');
    }
  });

  it('every bidder route answers 401 UNAUTHENTICATED without a token', async () => {
    for (const [method, url, body] of [...userRoutes, ...anyRoutes]) {
      const res = await call(app, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      expectError(res, 401, 'UNAUTHENTICATED');
    }
  });
});
