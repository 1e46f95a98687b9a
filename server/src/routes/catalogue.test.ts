/**
 * Admin catalogue API (DESIGN §3, §4, §5; spec §5): products, auctions, settlement, and the admin
 * figures built on them, all through HTTP. Every test runs on a fresh in-memory database with a
 * clock the test moves (2026-11-24T00:00Z at the start), so times and statuses are exact.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import {
  balanceOf, bid, call, createAuction, createProducts, expectError, expectMoneyInvariant, HOUR, makeApp, makeClock,
  richBidder, signUpAdmin, signUpUser,
} from '../test/helpers.js';

type Clock = ReturnType<typeof makeClock>;
type Method = InjectOptions['method'];
type Account = { token: string };

interface ProductJson {
  id: string; name: string; description: string; status: 'available' | 'sold'; auction_id: string | null; highest_bid: number; bid_count: number; version: number;
}
interface AuctionJson {
  id: string; name: string; valid_until: string; product_ids: string[]; registrations: number[]; product_count: number;
  status: 'active' | 'ended' | 'settled'; created_by: number; created_at: string; settled_at: string | null;
}
interface TransactionJson { _id: string; type: 'topup' | 'bid' | 'refund'; amount: number; timestamp: string; meta: { notes: string | null; product_id: string | null } }
interface UserBidJson { bid_id: number; product_id: string; auction_id: string; amount: number; status: string }

// Spec §5's words, and the server's own sentences for the rules spec §5 does not word (DESIGN §3: "names the field and why").
const FILL_PRODUCT = 'Please fill all fields';
const FILL_PRODUCT_EDIT = 'Fill required fields';
const FILL_AUCTION = 'Please fill all fields and select at least one product';
const FILL_AUCTION_EDIT = 'Please fill all required fields';
const FUTURE = 'valid_until must be in the future';
const DATE_TIME = 'valid_until must be a date-time such as 2026-11-24T07:45';
const ID_RULE = 'id must be 1–64 characters: letters, digits, _ - or .';
const NAME_LONG = 'name must be at most 120 characters';
const DESCRIPTION_LONG = 'description must be at most 2000 characters';
const START = Date.parse('2026-11-24T00:00:00.000Z');

let app: App;
let clock: Clock;

/** A fresh app (AUTO_SETTLE off: only the settle button settles here) per test, or one per describe. */
function withApp(scope: 'each' | 'all' = 'each') {
  (scope === 'each' ? beforeEach : beforeAll)(async () => {
    clock = makeClock(START);
    app = await makeApp({ autoSettle: false }, { now: clock.now });
  });
  (scope === 'each' ? afterEach : afterAll)(async () => { await app.close(); });
}

const iso = (ms: number) => new Date(ms).toISOString();
const inHours = (h: number) => iso(clock.t + h * HOUR);
const get = (url: string, token: string) => call(app, 'GET', url, undefined, token);
const newAuction = (token: string, opts: { products?: number; endsIn?: number; id?: string } = {}) => createAuction(app, token, { now: clock.t, ...opts });
const unassigned = async (token: string) => (await get('/api/admin/products/unassigned', token)).json<ProductJson[]>();
const adminAuction = async (id: string, token: string) => (await get(`/api/admin/auction/${id}`, token)).json<AuctionJson>();
const adminProducts = async (id: string, token: string) => (await get(`/api/admin/auction/${id}/products`, token)).json<ProductJson[]>();
const transactionsOf = async (token: string) => (await get('/api/wallet/transactions', token)).json<{ transactions: TransactionJson[] }>().transactions;
const bidsOf = async (token: string) => (await get('/api/user-bids', token)).json<UserBidJson[]>();
const byId = <T extends { id: string }>(rows: T[]) => Object.fromEntries(rows.map((r) => [r.id, r]));
const sortedIds = (rows: { id: string }[]) => rows.map((r) => r.id).sort();

/** A product as createProducts makes it, unassigned and without bids, with overrides. */
const productJson = (id: string, over: Partial<ProductJson> = {}): ProductJson => ({
  // The version's own rules are tested with bids (bidder.test.ts); here any version will do.
  id, name: `Product ${id}`, description: `Description of ${id}`, status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: expect.any(Number) as number, ...over,
});

function expectValidation(res: LightMyRequestResponse, field: string, message: string) {
  const body = expectError(res, 400, 'VALIDATION');
  expect(body.error).toBe(message);
  expect(body.field).toBe(field);
  return body;
}

/** A request with a raw body (or none) and an explicit content type, which `call` cannot send. */
function raw(method: Method, url: string, token: string, payload?: string) {
  return app.inject({
    method, url, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function placeBid(token: string, productId: string, amount: number) {
  const res = await bid(app, token, productId, amount);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ bid: UserBidJson }>().bid;
}

// ---------------------------------------------------------------------------------------------

describe('access: every admin catalogue route', () => {
  withApp();

  /** In an order in which an admin's token succeeds at every step (settle uses a second auction `s`). */
  const routes = (p: string, a: string, s: string): [Method, string, unknown?][] => [
    ['POST', '/api/admin/product', { id: 'NEW-P', name: 'New', description: 'New product' }],
    ['PUT', `/api/admin/product/${p}`, { name: 'Renamed', description: 'Changed' }],
    ['GET', '/api/admin/products/unassigned'],
    ['POST', '/api/admin/auction', { id: 'NEW-A', name: 'New auction', valid_until: inHours(5), product_ids: ['NEW-P'] }],
    ['PUT', `/api/admin/auction/${a}`, { name: 'Renamed', valid_until: inHours(5) }],
    ['GET', `/api/admin/auction/${a}`],
    ['GET', '/api/admin/all_auctions'],
    ['GET', `/api/admin/auction_products/${a}`],
    ['GET', '/api/admin/auctions/my'],
    ['GET', `/api/admin/auction/${a}/products`],
    ['POST', `/api/admin/auction/${s}/settle`],
    ['GET', '/api/admin/stats'],
    ['GET', '/api/admin/reports'],
    ['GET', '/api/admin/settings'],
    ['DELETE', `/api/admin/product/${p}`],
    ['DELETE', `/api/admin/auction/${a}`],
  ];

  it('401 UNAUTHENTICATED without a token or with a bad one, 403 FORBIDDEN with a bidder token; nothing changes', async () => {
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    const { auctionId } = await newAuction(admin.token);
    const { auctionId: toSettle } = await newAuction(admin.token);
    const [p] = await createProducts(app, admin.token, 1);
    const state = async () => ({
      auction: await adminAuction(auctionId, admin.token), settle: await adminAuction(toSettle, admin.token), unassigned: await unassigned(admin.token),
    });
    const before = await state();
    const list = routes(p!, auctionId, toSettle);
    expect(list).toHaveLength(16);

    for (const [method, url, body] of list) {
      expectError(await call(app, method, url, body), 401, 'UNAUTHENTICATED');
      expectError(await call(app, method, url, body, 'not-a-jwt'), 401, 'UNAUTHENTICATED');
      const forbidden = expectError(await call(app, method, url, body, user.token), 403, 'FORBIDDEN');
      expect(forbidden.error, `${method} ${url}`).toBe('This action is for admin accounts');
    }

    expect(await state()).toEqual(before);
    expect(before.settle.status).toBe('active');
    expectError(await get('/api/admin/auction/NEW-A', admin.token), 404, 'NOT_FOUND');
    // The same calls with the admin's token succeed, so the refusals above came from the guard.
    for (const [method, url, body] of list) {
      const res = await call(app, method, url, body, admin.token);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(method === 'POST' && !url.endsWith('/settle') ? 201 : 200);
    }
  });
});

// ---------------------------------------------------------------------------------------------

describe('products: POST /api/admin/product, PUT/DELETE /api/admin/product/{id}, GET /api/admin/products/unassigned', () => {
  withApp();

  it('creates an unassigned product (201) listed as unassigned for its creator only; unknown fields are ignored', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const res = await call(app, 'POST', '/api/admin/product', {
      id: 'Vase_01.a-b', name: 'Ming vase', description: 'Blue and white porcelain', status: 'sold', auction_id: 'X', highest_bid: 99, created_by: other.admin.id,
    }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    const product = { id: 'Vase_01.a-b', name: 'Ming vase', description: 'Blue and white porcelain', status: 'available', auction_id: null, highest_bid: 0, bid_count: 0, version: 0 };
    expect(res.json()).toEqual({ message: 'Product created', product });
    expect(await unassigned(admin.token)).toEqual([product]);
    expect(await unassigned(other.token)).toEqual([]);
    // Only the creator may use it in an auction.
    const foreign = await call(app, 'POST', '/api/admin/auction', { id: 'A1', name: 'A', valid_until: inHours(2), product_ids: ['Vase_01.a-b'] }, other.token);
    expect(expectError(foreign, 409, 'PRODUCT_NOT_AVAILABLE').field).toBe('product_ids');
  });

  it('accepts the limits exactly: a 64-character id, a 120-character name, a 2,000-character description', async () => {
    const admin = await signUpAdmin(app);
    const body = { id: 'i'.repeat(64), name: 'n'.repeat(120), description: 'd'.repeat(2000) };
    const res = await call(app, 'POST', '/api/admin/product', body, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().product).toMatchObject(body);
  });

  it('409 ID_TAKEN for a duplicate id, from the same or another admin, and for the id of a deleted product', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const [p] = await createProducts(app, admin.token, 1);
    for (const token of [admin.token, other.token]) {
      const res = await call(app, 'POST', '/api/admin/product', { id: p, name: 'Impostor', description: 'Same id' }, token);
      expect(expectError(res, 409, 'ID_TAKEN').field).toBe('id');
    }
    expect(await unassigned(admin.token)).toEqual([productJson(p!)]);
    expect(await unassigned(other.token)).toEqual([]);

    expect((await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token)).statusCode).toBe(200);
    const again = await call(app, 'POST', '/api/admin/product', { id: p, name: 'Reborn', description: 'After delete' }, admin.token);
    expect(expectError(again, 409, 'ID_TAKEN').field).toBe('id');
    expect(await unassigned(admin.token)).toEqual([]);
  });

  it('PUT edits name and description (200) for the creator; the id in the body is ignored; the auction lists show the change', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const res = await call(app, 'PUT', `/api/admin/product/${p}`, { id: 'hijack', name: 'Renamed', description: 'New words' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const product = productJson(p!, { name: 'Renamed', description: 'New words', auction_id: auctionId });
    expect(res.json()).toEqual({ message: 'Product updated', product });
    expect(await adminProducts(auctionId, admin.token)).toEqual([product]);
    expectError(await call(app, 'PUT', '/api/admin/product/hijack', { name: 'x', description: 'y' }, admin.token), 404, 'NOT_FOUND');
  });

  it('PUT/DELETE by another admin is 403 FORBIDDEN and changes nothing; unknown or deleted ids are 404 NOT_FOUND', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const [p, q] = await createProducts(app, admin.token, 2);
    expectError(await call(app, 'PUT', `/api/admin/product/${p}`, { name: 'Mine now', description: 'Taken' }, other.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, other.token), 403, 'FORBIDDEN');
    expect(sortedIds(await unassigned(admin.token))).toEqual([p, q].sort());
    expect(byId(await unassigned(admin.token))[p!]).toEqual(productJson(p!));

    expectError(await call(app, 'PUT', '/api/admin/product/no-such-product', { name: 'a', description: 'b' }, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/admin/product/no-such-product', undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'DELETE', '/api/admin/product/no%20such', undefined, admin.token), 404, 'NOT_FOUND');

    expect((await call(app, 'DELETE', `/api/admin/product/${q}`, undefined, admin.token)).json()).toEqual({ message: 'Deleted' });
    expectError(await call(app, 'DELETE', `/api/admin/product/${q}`, undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'PUT', `/api/admin/product/${q}`, { name: 'Back', description: 'Again' }, admin.token), 404, 'NOT_FOUND');
  });

  it('DELETE (200) removes a product from every list, with or without a JSON content type and an empty body', async () => {
    const admin = await signUpAdmin(app);
    const user = await signUpUser(app);
    const { auctionId, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    const [u] = await createProducts(app, admin.token, 1);

    const res = await raw('DELETE', `/api/admin/product/${p}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Deleted' });
    expect((await raw('DELETE', `/api/admin/product/${u}`, admin.token, '')).statusCode).toBe(200);

    const auction = await adminAuction(auctionId, admin.token);
    expect(auction.product_ids).toEqual([q]);
    expect(auction.product_count).toBe(1);
    expect((await adminProducts(auctionId, admin.token)).map((x) => x.id)).toEqual([q]);
    expect((await get(`/api/admin/auction_products/${auctionId}`, admin.token)).json().products.map((x: ProductJson) => x.id)).toEqual([q]);
    expect((await get(`/api/auctions/${auctionId}/products`, user.token)).json().map((x: ProductJson) => x.id)).toEqual([q]);
    const listed = (await get('/api/auctions', user.token)).json<{ id: string; product_ids: string[]; product_count: number }[]>();
    expect(listed.find((a) => a.id === auctionId)).toMatchObject({ product_ids: [q], product_count: 1 });
    expect(await unassigned(admin.token)).toEqual([]);
    const report = (await get('/api/admin/reports', admin.token)).json<{ products: { id: string }[] }>();
    expect(report.products.map((x) => x.id)).toEqual([q]);
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ total_products: 1, unassigned_products: 0 });
  });

  it('DELETE of a product holding a leading bid refunds that hold (rolledback, refund row with notes); others keep theirs', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const outbid = await placeBid(asha.token, p!, 300);
    const leading = await placeBid(ravi.token, p!, 450);
    await placeBid(asha.token, q!, 200);
    expect(await balanceOf(app, ravi.token)).toBe(550);

    expect((await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token)).json()).toEqual({ message: 'Deleted' });

    expect(await balanceOf(app, ravi.token)).toBe(1000);
    expect(await balanceOf(app, asha.token)).toBe(800);
    const [refund] = await transactionsOf(ravi.token);
    expect(refund).toMatchObject({ type: 'refund', amount: 450, meta: { product_id: p } });
    expect(refund!.meta.notes).toEqual(expect.stringContaining(`Product ${p}`));
    // The bids stay readable; the leading one is now cancelled, the outbid one untouched.
    expect((await bidsOf(ravi.token)).map((b) => [b.bid_id, b.status])).toEqual([[leading.bid_id, 'rolledback']]);
    expect((await bidsOf(asha.token)).map((b) => [b.bid_id, b.status])).toEqual([[expect.any(Number), 'success'], [outbid.bid_id, 'outbid']]);
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ pending: 200, revenue: 0 });
    expect((await adminProducts(auctionId, admin.token)).map((x) => [x.id, x.highest_bid])).toEqual([[q, 200]]);
    await expectMoneyInvariant(app);
  });

  it('DELETE or PUT of a sold product is 409 PRODUCT_SOLD: it stays sold, listed and described as bought; the ledger names what was bid on', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, p!, 700);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);

    expectError(await call(app, 'DELETE', `/api/admin/product/${p}`, undefined, admin.token), 409, 'PRODUCT_SOLD');
    expectError(await call(app, 'PUT', `/api/admin/product/${p}`, { name: 'Something else', description: 'Not what was sold' }, admin.token), 409, 'PRODUCT_SOLD');
    const won = (await call(app, 'GET', '/api/user-bids', undefined, asha.token)).json<{ product_name: string; status: string }[]>();
    expect(won).toEqual([expect.objectContaining({ product_name: `Product ${p}`, status: 'won' })]);
    const holds = (await call(app, 'GET', '/api/wallet/transactions', undefined, asha.token)).json<{ transactions: { type: string; meta: { notes: string | null } }[] }>().transactions;
    expect(holds.filter((t) => t.type === 'bid').map((t) => t.meta.notes)).toEqual([`Bid on Product ${p}`]);
    expect(await adminProducts(auctionId, admin.token)).toEqual([productJson(p!, { status: 'sold', auction_id: auctionId, highest_bid: 700, bid_count: 1 })]);
    expect(await balanceOf(app, asha.token)).toBe(300);
    await expectMoneyInvariant(app);
  });
});

// ---------------------------------------------------------------------------------------------

describe('auctions: POST /api/admin/auction', () => {
  withApp();

  it('creates an auction (201) from the caller’s unassigned products, which leave the unassigned list', async () => {
    const admin = await signUpAdmin(app);
    const [p, q, r] = await createProducts(app, admin.token, 3);
    const res = await call(app, 'POST', '/api/admin/auction', {
      id: 'Diwali-2026', name: 'Diwali sale', valid_until: '2026-11-25T10:00:00.000Z', product_ids: [p, q, p], created_by: 999, status: 'settled',
    }, admin.token);
    expect(res.statusCode, res.body).toBe(201);
    const auction: AuctionJson = {
      id: 'Diwali-2026', name: 'Diwali sale', valid_until: '2026-11-25T10:00:00.000Z', product_ids: [p!, q!].sort(), registrations: [], product_count: 2,
      status: 'active', created_by: admin.admin.id, created_at: iso(START), settled_at: null,
    };
    const body = res.json<{ message: string; auction: AuctionJson }>();
    expect({ ...body, auction: { ...body.auction, product_ids: [...body.auction.product_ids].sort() } }).toEqual({ message: 'Auction created successfully!', auction });
    expect(await adminAuction('Diwali-2026', admin.token)).toEqual(body.auction);
    expect(await unassigned(admin.token)).toEqual([productJson(r!)]);
    expect(byId(await adminProducts('Diwali-2026', admin.token))).toEqual({
      [p!]: productJson(p!, { auction_id: 'Diwali-2026' }), [q!]: productJson(q!, { auction_id: 'Diwali-2026' }),
    });
  });

  it('reads a valid_until without an offset in Asia/Kolkata and answers in UTC; offsets and Z are honoured', async () => {
    const admin = await signUpAdmin(app);
    const cases: [string, string][] = [
      ['2026-11-24T07:45', '2026-11-24T02:15:00.000Z'],
      ['2026-11-24T07:45:30', '2026-11-24T02:15:30.000Z'],
      ['2026-11-24T07:45+05:30', '2026-11-24T02:15:00.000Z'],
      ['2026-11-24T07:45:00Z', '2026-11-24T07:45:00.000Z'],
      ['2026-11-24T07:45:00-02:00', '2026-11-24T09:45:00.000Z'],
    ];
    for (const [i, [input, expected]] of cases.entries()) {
      const [p] = await createProducts(app, admin.token, 1);
      const res = await call(app, 'POST', '/api/admin/auction', { id: `TZ-${i}`, name: 'Zoned', valid_until: input, product_ids: [p] }, admin.token);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().auction.valid_until, input).toBe(expected);
      expect((await adminAuction(`TZ-${i}`, admin.token)).valid_until).toBe(expected);
    }
  });

  it('409 ID_TAKEN for a duplicate id (any admin) and for the id of a deleted auction; the products stay unassigned', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId } = await newAuction(admin.token);
    const [mine] = await createProducts(app, admin.token, 1);
    const [theirs] = await createProducts(app, other.token, 1);
    const dup = (token: string, p: string) => call(app, 'POST', '/api/admin/auction', { id: auctionId, name: 'Dup', valid_until: inHours(3), product_ids: [p] }, token);
    expect(expectError(await dup(admin.token, mine!), 409, 'ID_TAKEN').field).toBe('id');
    expect(expectError(await dup(other.token, theirs!), 409, 'ID_TAKEN').field).toBe('id');
    expect(await unassigned(admin.token)).toEqual([productJson(mine!)]);
    expect(await unassigned(other.token)).toEqual([productJson(theirs!)]);

    expect((await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token)).statusCode).toBe(200);
    expect(expectError(await dup(admin.token, mine!), 409, 'ID_TAKEN').field).toBe('id');
    expectError(await get(`/api/admin/auction/${auctionId}`, admin.token), 404, 'NOT_FOUND');
    expect(sortedIds(await unassigned(admin.token))).toHaveLength(2);
  });

  it('409 PRODUCT_NOT_AVAILABLE for another admin’s, an assigned, a sold, a deleted or an unknown product; nothing is assigned', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const [free] = await createProducts(app, admin.token, 1);
    const [foreign] = await createProducts(app, other.token, 1);
    const { productIds: [assigned] } = await newAuction(admin.token);
    const { auctionId: soldIn, productIds: [sold] } = await newAuction(admin.token);
    const asha = await richBidder(app, 100, [soldIn]);
    await placeBid(asha.token, sold!, 50);
    expect((await call(app, 'POST', `/api/admin/auction/${soldIn}/settle`, undefined, admin.token)).statusCode).toBe(200);
    const [gone] = await createProducts(app, admin.token, 1);
    expect((await call(app, 'DELETE', `/api/admin/product/${gone}`, undefined, admin.token)).statusCode).toBe(200);

    for (const bad of [foreign, assigned, sold, gone, 'no-such-product']) {
      const res = await call(app, 'POST', '/api/admin/auction', { id: 'Mixed', name: 'Mixed', valid_until: inHours(3), product_ids: [free, bad] }, admin.token);
      const body = expectError(res, 409, 'PRODUCT_NOT_AVAILABLE');
      expect(body.field).toBe('product_ids');
      expect(body.error).toContain(bad!);
    }
    expectError(await get('/api/admin/auction/Mixed', admin.token), 404, 'NOT_FOUND');
    expect(await unassigned(admin.token)).toEqual([productJson(free!)]);
    expect(await unassigned(other.token)).toEqual([productJson(foreign!)]);
    await expectMoneyInvariant(app);
  });
});

// ---------------------------------------------------------------------------------------------

describe('auctions: PUT /api/admin/auction/{id}', () => {
  withApp();

  it('edits name and valid_until (200); product_ids left out keeps the products', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds } = await newAuction(admin.token, { products: 2 });
    const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Renamed sale', valid_until: '2026-11-30T18:00' }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; auction: AuctionJson }>();
    expect(body.message).toBe('Auction updated successfully!');
    expect(body.auction).toMatchObject({ id: auctionId, name: 'Renamed sale', valid_until: '2026-11-30T12:30:00.000Z', product_count: 2, status: 'active', settled_at: null });
    expect([...body.auction.product_ids].sort()).toEqual([...productIds].sort());
    expect(await adminAuction(auctionId, admin.token)).toEqual(body.auction);
  });

  it('product_ids adds the caller’s unassigned products and removes bid-less ones, which return to unassigned', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [keep, drop] } = await newAuction(admin.token, { products: 2 });
    const [add] = await createProducts(app, admin.token, 1);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, keep!, 120);
    // A bid that was cancelled does not count as "has bids" (DESIGN §4: has a success bid).
    const cancelled = await placeBid(asha.token, drop!, 80);
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: cancelled.bid_id }, asha.token)).statusCode).toBe(200);

    const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Reshuffled', valid_until: inHours(5), product_ids: [keep, add] }, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect([...res.json<{ auction: AuctionJson }>().auction.product_ids].sort()).toEqual([keep!, add!].sort());
    expect(byId(await adminProducts(auctionId, admin.token))).toEqual({
      [keep!]: productJson(keep!, { auction_id: auctionId, highest_bid: 120, bid_count: 1 }),
      [add!]: productJson(add!, { auction_id: auctionId }),
    });
    expect(await unassigned(admin.token)).toEqual([productJson(drop!)]);
    expect(await balanceOf(app, asha.token)).toBe(880);
    await expectMoneyInvariant(app);
  });

  it('409 PRODUCT_HAS_BIDS when the edit would take out a product holding a leading bid; nothing changes', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [held, free] } = await newAuction(admin.token, { products: 2 });
    const [add] = await createProducts(app, admin.token, 1);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, held!, 100);
    await placeBid(ravi.token, held!, 150); // outbid: the product still has a leading bid (Ravi's)
    const before = await adminAuction(auctionId, admin.token);

    const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Changed', valid_until: inHours(9), product_ids: [free, add] }, admin.token);
    const body = expectError(res, 409, 'PRODUCT_HAS_BIDS');
    expect(body.error).toContain(held!);
    expect(await adminAuction(auctionId, admin.token)).toEqual(before);
    expect(await unassigned(admin.token)).toEqual([productJson(add!)]);
    expect((await adminProducts(auctionId, admin.token)).find((x) => x.id === held)).toMatchObject({ highest_bid: 150, bid_count: 2 });
    expect(await balanceOf(app, ravi.token)).toBe(850);
    await expectMoneyInvariant(app);
  });

  it('409 PRODUCT_NOT_AVAILABLE when product_ids adds another admin’s or an assigned product; nothing changes', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const { productIds: [elsewhere] } = await newAuction(admin.token);
    const [foreign] = await createProducts(app, other.token, 1);
    const before = await adminAuction(auctionId, admin.token);
    for (const bad of [foreign, elsewhere]) {
      const res = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Changed', valid_until: inHours(9), product_ids: [p, bad] }, admin.token);
      expect(expectError(res, 409, 'PRODUCT_NOT_AVAILABLE').field).toBe('product_ids');
    }
    expect(await adminAuction(auctionId, admin.token)).toEqual(before);
    expect(await unassigned(other.token)).toEqual([productJson(foreign!)]);
  });

  it('another admin gets 403 FORBIDDEN; unknown and deleted auctions are 404 NOT_FOUND', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId } = await newAuction(admin.token);
    const before = await adminAuction(auctionId, admin.token);
    expectError(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Hijacked', valid_until: inHours(9) }, other.token), 403, 'FORBIDDEN');
    expect(await adminAuction(auctionId, admin.token)).toEqual(before);
    expectError(await call(app, 'PUT', '/api/admin/auction/no-such-auction', { name: 'x', valid_until: inHours(9) }, admin.token), 404, 'NOT_FOUND');
    expect((await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token)).statusCode).toBe(200);
    expectError(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Back', valid_until: inHours(9) }, admin.token), 404, 'NOT_FOUND');
  });

  it('an ended, unsettled auction keeps its end when resent, may not move it into the past, and reopens with a future one', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await newAuction(admin.token, { endsIn: HOUR });
    const end = iso(START + HOUR);
    clock.advance(2 * HOUR);
    expect((await adminAuction(auctionId, admin.token)).status).toBe('ended');

    const same = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Ended, renamed', valid_until: end }, admin.token);
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().auction).toMatchObject({ name: 'Ended, renamed', valid_until: end, status: 'ended' });
    expectValidation(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'x', valid_until: iso(START + 90 * 60_000) }, admin.token), 'valid_until', FUTURE);
    const reopened = await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Reopened', valid_until: inHours(1) }, admin.token);
    expect(reopened.json().auction).toMatchObject({ name: 'Reopened', valid_until: iso(START + 3 * HOUR), status: 'active' });
  });
});

// ---------------------------------------------------------------------------------------------

describe('auctions: DELETE /api/admin/auction/{id}', () => {
  withApp();

  it('deletes (200): the auction vanishes from every list and its products return to unassigned', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId, productIds } = await newAuction(admin.token, { products: 2 });
    const { auctionId: kept } = await newAuction(admin.token);
    const user = await richBidder(app, 0, [auctionId, kept]);

    const res = await raw('DELETE', `/api/admin/auction/${auctionId}`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Auction deleted successfully!' });

    for (const url of [`/api/admin/auction/${auctionId}`, `/api/admin/auction_products/${auctionId}`, `/api/admin/auction/${auctionId}/products`]) {
      expectError(await get(url, other.token), 404, 'NOT_FOUND');
    }
    expectError(await get(`/api/auctions/${auctionId}/products`, user.token), 404, 'NOT_FOUND');
    expect((await get('/api/admin/all_auctions', other.token)).json().auctions.map((a: AuctionJson) => a.id)).toEqual([kept]);
    expect((await get('/api/admin/auctions/my', admin.token)).json().map((a: AuctionJson) => a.id)).toEqual([kept]);
    expect((await get('/api/auctions', user.token)).json().map((a: AuctionJson) => a.id)).toEqual([kept]);
    expect((await get('/api/my_auctions', user.token)).json().user_details.auctions).toEqual([kept]);
    expect((await get('/api/admin/reports', admin.token)).json().auctions.map((a: AuctionJson) => a.id)).toEqual([kept]);
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ total_auctions: 1, active_auctions: 1, total_products: 3, unassigned_products: 2 });
    expect(byId(await unassigned(admin.token))).toEqual(Object.fromEntries(productIds.map((id) => [id, productJson(id)])));
    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token), 404, 'NOT_FOUND');
  });

  it('refunds every hold: bidders get their money back with a refund row and notes; outbid bids stay outbid', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q, r] } = await newAuction(admin.token, { products: 3 });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const ashaOutbid = await placeBid(asha.token, p!, 100);
    const raviOnP = await placeBid(ravi.token, p!, 250);
    const ashaOnQ = await placeBid(asha.token, q!, 300);
    expect([await balanceOf(app, asha.token), await balanceOf(app, ravi.token)]).toEqual([700, 750]);

    expect((await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token)).json()).toEqual({ message: 'Auction deleted successfully!' });

    expect([await balanceOf(app, asha.token), await balanceOf(app, ravi.token)]).toEqual([1000, 1000]);
    const [ashaRefund] = await transactionsOf(asha.token);
    expect(ashaRefund).toMatchObject({ type: 'refund', amount: 300, meta: { product_id: q } });
    expect(ashaRefund!.meta.notes).toEqual(expect.stringContaining(`Auction ${auctionId}`));
    const [raviRefund] = await transactionsOf(ravi.token);
    expect(raviRefund).toMatchObject({ type: 'refund', amount: 250, meta: { product_id: p } });
    expect(raviRefund!.meta.notes).toEqual(expect.stringContaining(`Product ${p}`));
    expect((await bidsOf(asha.token)).map((b) => [b.bid_id, b.status])).toEqual([[ashaOnQ.bid_id, 'rolledback'], [ashaOutbid.bid_id, 'outbid']]);
    expect((await bidsOf(ravi.token)).map((b) => [b.bid_id, b.status])).toEqual([[raviOnP.bid_id, 'rolledback']]);
    expect(byId(await unassigned(admin.token))).toEqual({ [p!]: productJson(p!), [q!]: productJson(q!), [r!]: productJson(r!) });
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ pending: 0, revenue: 0, total_bids: 0 });
    const audit = await expectMoneyInvariant(app);
    expect([audit.held, audit.paid]).toEqual([0, 0]);
  });

  it('another admin gets 403 FORBIDDEN and nothing changes; unknown ids are 404; a settled auction is 409 AUCTION_SETTLED', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const asha = await richBidder(app, 500, [auctionId]);
    await placeBid(asha.token, p!, 200);
    const before = await adminAuction(auctionId, admin.token);

    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, other.token), 403, 'FORBIDDEN');
    expect(await adminAuction(auctionId, admin.token)).toEqual(before);
    expect(await balanceOf(app, asha.token)).toBe(300);
    expectError(await call(app, 'DELETE', '/api/admin/auction/no-such-auction', undefined, admin.token), 404, 'NOT_FOUND');

    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).statusCode).toBe(200);
    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expect((await adminAuction(auctionId, admin.token)).status).toBe('settled');
    expect(await balanceOf(app, asha.token)).toBe(300);
    await expectMoneyInvariant(app);
  });
});

// ---------------------------------------------------------------------------------------------

describe('settle: POST /api/admin/auction/{id}/settle', () => {
  withApp();

  it('early settle: leading bids win, products sell, unsold ones return to unassigned, valid_until moves to now', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q, r] } = await newAuction(admin.token, { products: 3, endsIn: 5 * HOUR });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const ashaOnP = await placeBid(asha.token, p!, 300);
    const raviOnP = await placeBid(ravi.token, p!, 400.5);
    const ashaOnQ = await placeBid(asha.token, q!, 250);
    clock.advance(30 * 60_000);
    const settledAt = iso(clock.t);

    const res = await raw('POST', `/api/admin/auction/${auctionId}/settle`, admin.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; sold: { product_id: string; amount: number }[]; unsold: string[] }>();
    expect(body.message).toBe('Auction settled successfully!');
    expect([...body.sold].sort((a, b) => a.product_id.localeCompare(b.product_id))).toEqual([{ product_id: p, amount: 400.5 }, { product_id: q, amount: 250 }]);
    expect(body.unsold).toEqual([r]);

    const auction = await adminAuction(auctionId, admin.token);
    expect(auction).toMatchObject({ status: 'settled', settled_at: settledAt, valid_until: settledAt, product_count: 2 });
    expect([...auction.product_ids].sort()).toEqual([p!, q!].sort());
    const user = await signUpUser(app);
    expect(byId((await get(`/api/auctions/${auctionId}/products`, user.token)).json<ProductJson[]>())).toEqual({
      [p!]: productJson(p!, { status: 'sold', auction_id: auctionId, highest_bid: 400.5, bid_count: 2 }),
      [q!]: productJson(q!, { status: 'sold', auction_id: auctionId, highest_bid: 250, bid_count: 1 }),
    });
    expect(await unassigned(admin.token)).toEqual([productJson(r!)]);
    expect((await bidsOf(asha.token)).map((b) => [b.bid_id, b.status])).toEqual([[ashaOnQ.bid_id, 'won'], [ashaOnP.bid_id, 'outbid']]);
    expect((await bidsOf(ravi.token)).map((b) => [b.bid_id, b.status])).toEqual([[raviOnP.bid_id, 'won']]);
    expect([await balanceOf(app, asha.token), await balanceOf(app, ravi.token)]).toEqual([750, 599.5]);
    // The hold became the payment: no new ledger row.
    expect((await transactionsOf(ravi.token)).map((t) => [t.type, t.amount])).toEqual([['bid', 400.5], ['topup', 1000]]);
    const audit = await expectMoneyInvariant(app);
    expect([audit.held, audit.paid]).toEqual([0, 65050]);

    // The unsold product can go into a new auction.
    const again = await call(app, 'POST', '/api/admin/auction', { id: 'Second-chance', name: 'Again', valid_until: inHours(2), product_ids: [r] }, admin.token);
    expect(again.statusCode, again.body).toBe(201);
  });

  it('a second settle is 409 AUCTION_SETTLED and changes nothing; edits and deletes of a settled auction are 409 too', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    const [spare] = await createProducts(app, admin.token, 1);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, p!, 600);
    expect((await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token)).json())
      .toEqual({ message: 'Auction settled successfully!', sold: [{ product_id: p, amount: 600 }], unsold: [q] });
    const snapshot = async () => ({
      auction: await adminAuction(auctionId, admin.token), products: await adminProducts(auctionId, admin.token),
      unassigned: await unassigned(admin.token), balance: await balanceOf(app, asha.token), bids: await bidsOf(asha.token),
      stats: (await get('/api/admin/stats', admin.token)).json(),
    });
    const before = await snapshot();
    clock.advance(HOUR);

    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expectError(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Edited', valid_until: inHours(5) }, admin.token), 409, 'AUCTION_SETTLED');
    expectError(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { name: 'Edited', valid_until: inHours(5), product_ids: [p, spare] }, admin.token), 409, 'AUCTION_SETTLED');
    expectError(await call(app, 'DELETE', `/api/admin/auction/${auctionId}`, undefined, admin.token), 409, 'AUCTION_SETTLED');
    expect(await snapshot()).toEqual(before);
    expect(before.stats).toMatchObject({ revenue: 600, pending: 0 });
    await expectMoneyInvariant(app);
  });

  it('settling after the end keeps valid_until; an auction without bids sells nothing', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token, { endsIn: HOUR });
    clock.advance(3 * HOUR);
    const res = await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, admin.token);
    expect(res.json()).toEqual({ message: 'Auction settled successfully!', sold: [], unsold: [p] });
    expect(await adminAuction(auctionId, admin.token)).toMatchObject({
      status: 'settled', valid_until: iso(START + HOUR), settled_at: iso(START + 3 * HOUR), product_ids: [], product_count: 0,
    });
    expect(await unassigned(admin.token)).toEqual([productJson(p!)]);
  });

  it('another admin gets 403 FORBIDDEN and nothing changes; unknown ids are 404 NOT_FOUND', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await newAuction(admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, p!, 100);
    const before = await adminAuction(auctionId, admin.token);
    expectError(await call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, other.token), 403, 'FORBIDDEN');
    expect(await adminAuction(auctionId, admin.token)).toEqual(before);
    expect((await adminProducts(auctionId, admin.token))[0]).toMatchObject({ status: 'available', highest_bid: 100 });
    expect((await bidsOf(asha.token))[0]!.status).toBe('success');
    expectError(await call(app, 'POST', '/api/admin/auction/no-such-auction/settle', undefined, admin.token), 404, 'NOT_FOUND');
    await expectMoneyInvariant(app);
  });
});

// ---------------------------------------------------------------------------------------------

describe('reads: GET /api/admin/auction/{id}, all_auctions, auctions/my, auction_products/{id}, auction/{id}/products', () => {
  withApp();

  it('any admin reads any auction and its products; lists are scoped as DESIGN §3 says; unknown ids are 404', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId: a1, productIds: [p, q] } = await newAuction(admin.token, { products: 2 });
    clock.advance(60_000);
    const { auctionId: a2 } = await newAuction(other.token);
    const bidder = await richBidder(app, 500, [a1]);
    await placeBid(bidder.token, q!, 42.25);

    const own = await adminAuction(a1, admin.token);
    expect(own).toEqual({
      id: a1, name: `Auction ${a1}`, valid_until: iso(START + 2 * HOUR), product_ids: [p, q], registrations: [bidder.user.id], product_count: 2,
      status: 'active', created_by: admin.admin.id, created_at: iso(START), settled_at: null,
    });
    expect(await adminAuction(a1, other.token)).toEqual(own);

    const products = [productJson(p!, { auction_id: a1 }), productJson(q!, { auction_id: a1, highest_bid: 42.25, bid_count: 1 })];
    for (const token of [admin.token, other.token]) {
      expect(await adminProducts(a1, token)).toEqual(products);
      expect((await get(`/api/admin/auction_products/${a1}`, token)).json()).toEqual({ products });
    }

    const all = (await get('/api/admin/all_auctions', admin.token)).json<{ auctions: AuctionJson[] }>();
    expect(Object.keys(all)).toEqual(['auctions']);
    expect(sortedIds(all.auctions)).toEqual([a1, a2].sort());
    expect(byId(all.auctions)[a1]).toEqual(own);
    expect(byId(all.auctions)[a2]).toMatchObject({ created_by: other.admin.id, created_at: iso(START + 60_000), registrations: [] });
    expect((await get('/api/admin/auctions/my', admin.token)).json()).toEqual([own]);
    expect((await get('/api/admin/auctions/my', other.token)).json().map((a: AuctionJson) => a.id)).toEqual([a2]);
    const newcomer = await signUpAdmin(app);
    expect((await get('/api/admin/auctions/my', newcomer.token)).json()).toEqual([]);
    expect(await unassigned(newcomer.token)).toEqual([]);

    for (const url of ['/api/admin/auction/nope', '/api/admin/auction_products/nope', '/api/admin/auction/nope/products']) {
      expectError(await get(url, admin.token), 404, 'NOT_FOUND');
    }
    await expectMoneyInvariant(app);
  });

  it('an auction’s status follows the clock: active, then ended at valid_until', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await newAuction(admin.token, { endsIn: HOUR });
    clock.advance(HOUR - 1);
    expect((await adminAuction(auctionId, admin.token)).status).toBe('active');
    clock.advance(1);
    expect((await adminAuction(auctionId, admin.token)).status).toBe('ended');
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ total_auctions: 1, active_auctions: 0 });
  });
});

// ---------------------------------------------------------------------------------------------

describe('figures: GET /api/admin/stats, /api/admin/reports, /api/admin/settings', () => {
  withApp();

  it('stats and reports after a known scenario (revenue = Σ won, pending = Σ leading, bids exclude failed)', async () => {
    const admin = await signUpAdmin(app);
    const other = await signUpAdmin(app);
    const { auctionId: A1, productIds: [a0, a1, a2] } = await newAuction(admin.token, { products: 3, endsIn: 10 * HOUR });
    const { auctionId: A2, productIds: [b0] } = await newAuction(admin.token, { endsIn: 10 * HOUR });
    const [u0] = await createProducts(app, admin.token, 1);
    const { auctionId: O1, productIds: [o0] } = await newAuction(other.token);
    const x = await richBidder(app, 1000, [A1, A2, O1]);
    const y = await richBidder(app, 1000, [A1, A2]);

    await placeBid(x.token, a0!, 100);
    await placeBid(y.token, a0!, 150); // x outbid
    expectError(await bid(app, x.token, a0!, 120), 409, 'BID_TOO_LOW'); // failed: not counted
    expectError(await bid(app, y.token, a1!, 5000), 402, 'INSUFFICIENT_FUNDS'); // failed: not counted
    await placeBid(x.token, a1!, 200);
    const cancelled = await placeBid(y.token, a2!, 60);
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: cancelled.bid_id }, y.token)).statusCode).toBe(200);
    await placeBid(x.token, b0!, 300);
    await placeBid(x.token, o0!, 77); // another admin's auction: not in these figures
    clock.advance(HOUR);
    expect((await call(app, 'POST', `/api/admin/auction/${A2}/settle`, undefined, admin.token)).statusCode).toBe(200);

    expect((await get('/api/admin/stats', admin.token)).json()).toEqual({
      total_auctions: 2, active_auctions: 1, total_products: 5, unassigned_products: 1, total_bids: 5, revenue: 300, pending: 350,
    });
    expect((await get('/api/admin/stats', other.token)).json()).toEqual({
      total_auctions: 1, active_auctions: 1, total_products: 1, unassigned_products: 0, total_bids: 1, revenue: 0, pending: 77,
    });

    const reports = (await get('/api/admin/reports', admin.token)).json<{ auctions: { id: string }[]; products: { id: string }[] }>();
    expect(Object.keys(reports).sort()).toEqual(['auctions', 'products']);
    expect(reports.auctions).toHaveLength(2);
    expect(byId(reports.auctions)).toEqual({
      [A1]: { id: A1, name: `Auction ${A1}`, valid_until: iso(START + 10 * HOUR), status: 'active', product_count: 3, bid_count: 4, revenue: 0, pending: 350 },
      [A2]: { id: A2, name: `Auction ${A2}`, valid_until: iso(START + HOUR), status: 'settled', product_count: 1, bid_count: 1, revenue: 300, pending: 0 },
    });
    expect(reports.products).toHaveLength(5);
    const row = (id: string, status: string, auction_id: string | null, bid_count: number, highest_bid: number) =>
      ({ id, name: `Product ${id}`, description: `Description of ${id}`, status, auction_id, bid_count, highest_bid });
    expect(byId(reports.products)).toEqual({
      [a0!]: row(a0!, 'available', A1, 2, 150),
      [a1!]: row(a1!, 'available', A1, 1, 200),
      [a2!]: row(a2!, 'available', A1, 1, 0),
      [b0!]: row(b0!, 'sold', A2, 1, 300),
      [u0!]: row(u0!, 'unassigned', null, 0, 0),
    });
    expect([await balanceOf(app, x.token), await balanceOf(app, y.token)]).toEqual([423, 850]);
    await expectMoneyInvariant(app);

    // Deleting A1 refunds its holds and takes it out of every figure; its products become unassigned.
    expect((await call(app, 'DELETE', `/api/admin/auction/${A1}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await get('/api/admin/stats', admin.token)).json()).toEqual({
      total_auctions: 1, active_auctions: 0, total_products: 5, unassigned_products: 4, total_bids: 1, revenue: 300, pending: 0,
    });
    const after = (await get('/api/admin/reports', admin.token)).json<{ auctions: { id: string }[]; products: { id: string; status: string; bid_count: number; highest_bid: number }[] }>();
    expect(after.auctions.map((a) => a.id)).toEqual([A2]);
    expect(Object.fromEntries(after.products.map((p) => [p.id, [p.status, p.bid_count, p.highest_bid]]))).toEqual({
      [a0!]: ['unassigned', 0, 0], [a1!]: ['unassigned', 0, 0], [a2!]: ['unassigned', 0, 0], [b0!]: ['sold', 1, 300], [u0!]: ['unassigned', 0, 0],
    });
    expect([await balanceOf(app, x.token), await balanceOf(app, y.token)]).toEqual([623, 1000]);
    await expectMoneyInvariant(app);

    // Deleting a product takes it out of the report and the product count.
    expect((await call(app, 'DELETE', `/api/admin/product/${u0}`, undefined, admin.token)).statusCode).toBe(200);
    expect((await get('/api/admin/stats', admin.token)).json()).toMatchObject({ total_products: 4, unassigned_products: 3 });
    expect((await get('/api/admin/reports', admin.token)).json().products.map((p: { id: string }) => p.id).sort()).toEqual([a0!, a1!, a2!, b0!].sort());
  });

  it('a new admin has all-zero figures and empty reports', async () => {
    const admin = await signUpAdmin(app);
    expect((await get('/api/admin/stats', admin.token)).json()).toEqual({
      total_auctions: 0, active_auctions: 0, total_products: 0, unassigned_products: 0, total_bids: 0, revenue: 0, pending: 0,
    });
    expect((await get('/api/admin/reports', admin.token)).json()).toEqual({ auctions: [], products: [] });
  });

  it('settings show the running configuration: defaults here (AUTO_SETTLE off for this suite)', async () => {
    const admin = await signUpAdmin(app);
    expect((await get('/api/admin/settings', admin.token)).json()).toEqual({
      auto_settle: false, admin_signup: 'open', min_increment: 1, live_frame_ms: 30, timezone: 'Asia/Kolkata',
    });
  });

  it('settings follow the configuration, and TIMEZONE really decides how valid_until is read', async () => {
    await app.close();
    app = await makeApp({ autoSettle: true, adminSignup: 'closed', liveFrameMs: 0, timeZone: 'UTC' }, { now: clock.now });
    const admin = await signUpAdmin(app);
    expect((await get('/api/admin/settings', admin.token)).json()).toEqual({
      auto_settle: true, admin_signup: 'closed', min_increment: 1, live_frame_ms: 0, timezone: 'UTC',
    });
    const [p] = await createProducts(app, admin.token, 1);
    const res = await call(app, 'POST', '/api/admin/auction', { id: 'UTC-1', name: 'In UTC', valid_until: '2026-11-24T07:45', product_ids: [p] }, admin.token);
    expect(res.json().auction.valid_until).toBe('2026-11-24T07:45:00.000Z');
  });
});

// ---------------------------------------------------------------------------------------------

describe('validation: 400 VALIDATION with the field and the exact message; nothing is written', () => {
  withApp('all');
  let admin: Account;
  let freeProduct: string;
  let auctionId: string;
  let auctionProduct: string;
  let snapshot: () => Promise<unknown>;

  beforeAll(async () => {
    admin = await signUpAdmin(app);
    [freeProduct] = (await createProducts(app, admin.token, 1, 'FREE')) as [string];
    const created = await newAuction(admin.token, { id: 'AUC-1' });
    auctionId = created.auctionId;
    auctionProduct = created.productIds[0]!;
    snapshot = async () => ({
      unassigned: await unassigned(admin.token),
      auctions: (await get('/api/admin/all_auctions', admin.token)).json(),
      products: await adminProducts(auctionId, admin.token),
    });
  });

  const longText = (n: number) => 'x'.repeat(n);

  describe('POST /api/admin/product', () => {
    const base = { id: 'NEW-PRODUCT', name: 'Teak chair', description: 'Hand carved' };
    it.each<[string, Record<string, unknown>, string]>([
      ['id', { id: undefined }, FILL_PRODUCT],
      ['name', { name: undefined }, FILL_PRODUCT],
      ['description', { description: undefined }, FILL_PRODUCT],
      ['id', { id: '' }, FILL_PRODUCT],
      ['id', { id: '   ' }, FILL_PRODUCT],
      ['name', { name: '' }, FILL_PRODUCT],
      ['name', { name: ' \t ' }, FILL_PRODUCT],
      ['description', { description: '' }, FILL_PRODUCT],
      ['description', { description: '   ' }, FILL_PRODUCT],
      ['id', { id: 'has space' }, ID_RULE],
      ['id', { id: 'slash/id' }, ID_RULE],
      ['id', { id: 'prodé' }, ID_RULE],
      ['id', { id: longText(65) }, ID_RULE],
      ['name', { name: longText(121) }, NAME_LONG],
      ['description', { description: longText(2001) }, DESCRIPTION_LONG],
      ['id', { id: 42 }, 'id must be a string'],
      ['name', { name: { first: 'Teak' } }, 'name must be a string'],
      ['name', { name: true }, 'name must be a string'],
      ['description', { description: ['Hand', 'carved'] }, 'description must be a string'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'POST', '/api/admin/product', { ...base, ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('PUT /api/admin/product/{id}', () => {
    const base = { name: 'Teak chair', description: 'Hand carved' };
    it.each<[string, Record<string, unknown>, string]>([
      ['name', { name: undefined }, FILL_PRODUCT_EDIT],
      ['description', { description: undefined }, FILL_PRODUCT_EDIT],
      ['name', { name: '' }, FILL_PRODUCT_EDIT],
      ['name', { name: '   ' }, FILL_PRODUCT_EDIT],
      ['description', { description: '' }, FILL_PRODUCT_EDIT],
      ['description', { description: '\n ' }, FILL_PRODUCT_EDIT],
      ['name', { name: longText(121) }, NAME_LONG],
      ['description', { description: longText(2001) }, DESCRIPTION_LONG],
      ['name', { name: 5 }, 'name must be a string'],
      ['description', { description: { text: 'x' } }, 'description must be a string'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'PUT', `/api/admin/product/${freeProduct}`, { ...base, ...over }, admin.token), field, message);
      expectValidation(await call(app, 'PUT', `/api/admin/product/${auctionProduct}`, { ...base, ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('POST /api/admin/auction', () => {
    const base = () => ({ id: 'NEW-AUCTION', name: 'Winter sale', valid_until: inHours(24), product_ids: [freeProduct] });
    it.each<[string, Record<string, unknown>, string]>([
      ['id', { id: undefined }, FILL_AUCTION],
      ['name', { name: undefined }, FILL_AUCTION],
      ['valid_until', { valid_until: undefined }, FILL_AUCTION],
      ['product_ids', { product_ids: undefined }, FILL_AUCTION],
      ['id', { id: '' }, FILL_AUCTION],
      ['name', { name: '  ' }, FILL_AUCTION],
      ['valid_until', { valid_until: '' }, FILL_AUCTION],
      ['valid_until', { valid_until: '   ' }, FILL_AUCTION],
      ['product_ids', { product_ids: [] }, FILL_AUCTION],
      ['id', { id: 'bad id!' }, ID_RULE],
      ['id', { id: longText(65) }, ID_RULE],
      ['name', { name: longText(121) }, NAME_LONG],
      ['valid_until', { valid_until: 'next friday' }, DATE_TIME],
      ['valid_until', { valid_until: '2026-02-30T10:00' }, DATE_TIME],
      ['valid_until', { valid_until: '2026-11-24T25:00' }, DATE_TIME],
      ['valid_until', { valid_until: '24/11/2026 07:45' }, DATE_TIME],
      ['valid_until', { valid_until: `2026-11-24T07:45:00.000${'0'.repeat(30)}Z` }, DATE_TIME],
      ['valid_until', { valid_until: '2026-11-23T23:59:59Z' }, FUTURE],
      ['valid_until', { valid_until: '2026-11-24T00:00:00.000Z' }, FUTURE],
      // 05:29 in Kolkata is 23:59 UTC the day before: in the past, although it would be the future in UTC.
      ['valid_until', { valid_until: '2026-11-24T05:29' }, FUTURE],
      ['id', { id: 7 }, 'id must be a string'],
      ['name', { name: ['Winter'] }, 'name must be a string'],
      ['valid_until', { valid_until: Date.parse('2026-12-01T00:00:00Z') }, 'valid_until must be a string'],
      ['valid_until', { valid_until: { date: '2026-12-01' } }, 'valid_until must be a string'],
      ['product_ids', { product_ids: 'FREE-0' }, 'product_ids must be an array'],
      ['product_ids', { product_ids: { 0: 'FREE-0' } }, 'product_ids must be an array'],
      ['product_ids.0', { product_ids: [7] }, 'product_ids.0 must be a string'],
      ['product_ids.0', { product_ids: [{ id: 'FREE-0' }] }, 'product_ids.0 must be a string'],
      ['product_ids.0', { product_ids: ['bad id'] }, 'product_ids item must be 1–64 characters: letters, digits, _ - or .'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'POST', '/api/admin/auction', { ...base(), ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  describe('PUT /api/admin/auction/{id}', () => {
    const base = () => ({ name: 'Winter sale', valid_until: inHours(24) });
    it.each<[string, Record<string, unknown>, string]>([
      ['name', { name: undefined }, FILL_AUCTION_EDIT],
      ['valid_until', { valid_until: undefined }, FILL_AUCTION_EDIT],
      ['name', { name: '' }, FILL_AUCTION_EDIT],
      ['name', { name: '  ' }, FILL_AUCTION_EDIT],
      ['valid_until', { valid_until: '' }, FILL_AUCTION_EDIT],
      ['valid_until', { valid_until: '   ' }, FILL_AUCTION_EDIT],
      ['name', { name: longText(121) }, NAME_LONG],
      ['valid_until', { valid_until: 'soon' }, DATE_TIME],
      ['valid_until', { valid_until: '2026-11-23T12:00:00Z' }, FUTURE],
      ['valid_until', { valid_until: '2026-11-24T05:00' }, FUTURE],
      ['product_ids', { product_ids: [] }, 'Select at least one product'],
      ['name', { name: 1 }, 'name must be a string'],
      ['valid_until', { valid_until: 1795000000000 }, 'valid_until must be a string'],
      ['product_ids', { product_ids: 'FREE-0' }, 'product_ids must be an array'],
      ['product_ids.0', { product_ids: [null] }, 'product_ids.0 must be a string'],
    ])('%s: %j', async (field, over, message) => {
      const before = await snapshot();
      expectValidation(await call(app, 'PUT', `/api/admin/auction/${auctionId}`, { ...base(), ...over }, admin.token), field, message);
      expect(await snapshot()).toEqual(before);
    });
  });

  it('bodies of the wrong shape (array, string, number, null, nothing, broken JSON) are 400, never 500; > 64 KiB is 413, text is 415', async () => {
    const before = await snapshot();
    const targets: [Method, string][] = [
      ['POST', '/api/admin/product'], ['PUT', `/api/admin/product/${freeProduct}`],
      ['POST', '/api/admin/auction'], ['PUT', `/api/admin/auction/${auctionId}`],
    ];
    for (const [method, url] of targets) {
      for (const payload of ['[]', '"text"', '42', 'null', 'true', '[{"id":"x"}]']) {
        expectValidation(await raw(method, url, admin.token, payload), 'body', 'body must be a JSON object');
      }
      expect(expectError(await raw(method, url, admin.token, '{"id": '), 400, 'VALIDATION').error).toBe('Request body is not valid JSON');
      expect((await raw(method, url, admin.token)).statusCode, `${method} ${url} without a body`).toBe(400);
      expect((await raw(method, url, admin.token, '{"name": null, "description": null, "id": null, "valid_until": null, "product_ids": null}')).statusCode).toBe(400);
      const big = await raw(method, url, admin.token, JSON.stringify({ id: 'BIG', name: 'Big', description: 'x'.repeat(70 * 1024), valid_until: inHours(5), product_ids: [freeProduct] }));
      expectError(big, 413, 'PAYLOAD_TOO_LARGE');
      const text = await app.inject({ method, url, headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'text/plain' }, payload: 'id=x' });
      expectError(text, 415, 'UNSUPPORTED_MEDIA_TYPE');
    }
    expect(await snapshot()).toEqual(before);
  });
});
