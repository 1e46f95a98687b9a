/**
 * The bidder's side of the API, endpoint by endpoint (DESIGN §3, §4; spec §5): success shapes, every
 * error code a bidder can meet, and the rule that a refusal is recorded as a `failed` bid and never
 * debited. Runs on a movable clock so that ends, timestamps and countdowns are exact.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../context.js';
import {
  HOUR, balanceOf, bid, call, createAuction, createProducts, expectError, expectMoneyInvariant, makeApp, makeClock,
  richBidder, signUpAdmin, signUpUser, uniqueName,
} from '../test/helpers.js';

const BID_INVALID = 'Please enter a valid bid amount';
const TOPUP_INVALID = 'Enter an amount between ₹10 and ₹1,00,000';
const tooLow = (n: string) => `Bid must be higher than current highest bid of ${n}`;
const mask = (username: string) => `${username[0]}***${username.at(-1)}`;

let clock: ReturnType<typeof makeClock>;
let app: App;
beforeEach(async () => {
  clock = makeClock();
  // AUTO_SETTLE off: the scheduler would otherwise settle an auction the moment the moved clock passes its end.
  app = await makeApp({ autoSettle: false }, { now: clock.now });
});
afterEach(async () => { await app.close(); });

const iso = (ms: number) => new Date(ms).toISOString();

/** An auction over new products, ending `endsIn` after the test clock's now. */
function auction(adminToken: string, opts: { products?: number; endsIn?: number } = {}) {
  return createAuction(app, adminToken, { now: clock.t, ...opts });
}

/** A product with a chosen name (the helper names them `Product <id>`). */
async function namedProduct(adminToken: string, name: string, id = uniqueName('NP')) {
  const res = await call(app, 'POST', '/api/admin/product', { id, name, description: `About ${name}` }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return id;
}

async function auctionOver(adminToken: string, productIds: string[], endsIn = 2 * HOUR) {
  const id = uniqueName('A');
  const res = await call(app, 'POST', '/api/admin/auction', { id, name: `Auction ${id}`, valid_until: iso(clock.t + endsIn), product_ids: productIds }, adminToken);
  expect(res.statusCode, res.body).toBe(201);
  return id;
}

interface UserBidJson { bid_id: number; product_id: string; product_name: string; auction_id: string; amount: number; timestamp: string; status: string; reason: string | null }
interface TxJson { _id: string; type: string; amount: number; timestamp: string; meta: { notes: string | null; product_id: string | null; product_name: string | null } }

const myBids = async (token: string) => (await call(app, 'GET', '/api/user-bids', undefined, token)).json<UserBidJson[]>();
const myTransactions = async (token: string) => (await call(app, 'GET', '/api/wallet/transactions', undefined, token)).json<{ transactions: TxJson[] }>().transactions;
const highest = async (token: string, productId: string) =>
  (await call(app, 'GET', `/api/highest-bid?product_key=${encodeURIComponent(productId)}`, undefined, token)).json<{ highest_bid: number }>().highest_bid;
const settle = (adminToken: string, auctionId: string) => call(app, 'POST', `/api/admin/auction/${auctionId}/settle`, undefined, adminToken);
const register = (token: string, auctionId: string) => call(app, 'POST', '/api/auctions/register', { auction_id: auctionId }, token);

/** A refused bid: the error, then the `failed` row with its reason at the top of the bidder's list, nothing debited. */
async function expectRefusedAndRecorded(res: LightMyRequestResponse, status: number, code: string, token: string, productId: string, amount: number, balanceBefore: number) {
  const body = expectError(res, status, code);
  const [latest] = await myBids(token);
  expect(latest).toMatchObject({ product_id: productId, amount, status: 'failed', reason: code });
  expect(await balanceOf(app, token)).toBe(balanceBefore);
  expect((await myTransactions(token)).filter((t) => t.type === 'bid' && t.meta.product_id === productId && t.amount === amount)).toEqual([]);
  return body;
}

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
    expect(list[1]).toEqual({
      id: older.auctionId, name: `Auction ${older.auctionId}`, valid_until: iso(clock.t - 1000 + 3 * HOUR),
      product_ids: older.productIds, registrations: [asha.user.id], registered: true, product_count: 2, status: 'active',
    });
    // Ravi registered for the newer one; Asha must not see his id.
    expect(list[0]).toEqual({
      id: newer.auctionId, name: `Auction ${newer.auctionId}`, valid_until: iso(clock.t + HOUR),
      product_ids: newer.productIds, registrations: [], registered: false, product_count: 1, status: 'active',
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

describe('GET /api/auctions/{id}/products', () => {
  it('returns the products with highest bid and a bid count that ignores failed bids', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p0, p1] } = await auction(admin.token, { products: 2 });
    const asha = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, asha.token, p0!, 250.5)).statusCode).toBe(201);
    expectError(await bid(app, asha.token, p0!, 100), 409, 'BID_TOO_LOW');

    const res = await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, asha.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      { id: p0, name: `Product ${p0}`, description: `Description of ${p0}`, status: 'available', auction_id: auctionId, highest_bid: 250.5, bid_count: 1, version: 1 },
      { id: p1, name: `Product ${p1}`, description: `Description of ${p1}`, status: 'available', auction_id: auctionId, highest_bid: 0, bid_count: 0, version: 0 },
    ]);
    expect((await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, admin.token)).statusCode).toBe(200);
  });

  it('404 for an unknown auction, 401 without a token', async () => {
    const u = await signUpUser(app);
    expectError(await call(app, 'GET', '/api/auctions/nope/products', undefined, u.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', '/api/auctions/nope/products'), 401, 'UNAUTHENTICATED');
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

describe('POST /api/bid: placing', () => {
  it('by product_id: 201 with the bid, the new highest and the wallet balance', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    const u = await richBidder(app, 1000, [auctionId]);
    const res = await bid(app, u.token, p!, 300.25);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      message: 'Bid placed successfully!',
      bid: {
        bid_id: expect.any(Number), product_id: p, product_name: `Product ${p}`, auction_id: auctionId, auction_name: `Auction ${auctionId}`,
        amount: 300.25, timestamp: iso(clock.t), status: 'success', reason: null,
      },
      highest_bid: 300.25,
      wallet_balance: 699.75,
      version: 1,
    });
    expect(await balanceOf(app, u.token)).toBe(699.75);
    expect(await highest(u.token, p!)).toBe(300.25);
    // Every change of the lot's highest bid bumps its version; a refusal does not; the list shows it.
    expect((await bid(app, u.token, p!, 300.5)).statusCode).toBe(409);
    expect((await bid(app, u.token, p!, 320)).json<{ version: number }>().version).toBe(2);
    const shown = (await call(app, 'GET', `/api/auctions/${auctionId}/products`, undefined, u.token)).json<{ id: string; version: number }[]>();
    expect(shown.find((x) => x.id === p)?.version).toBe(2);
    await expectMoneyInvariant(app);
  });

  it('by product_name holding the id, and by the product’s name in an open auction (as existing clients send, with user_id = username)', async () => {
    const admin = await signUpAdmin(app);
    const lamp = await namedProduct(admin.token, 'Brass Lamp');
    const auctionId = await auctionOver(admin.token, [lamp]);
    const u = await richBidder(app, 1000, [auctionId]);
    const byId = await call(app, 'POST', '/api/bid', { product_name: lamp, bid_amount: 100, user_id: u.username }, u.token);
    expect(byId.statusCode, byId.body).toBe(201);
    expect(byId.json().bid).toMatchObject({ product_id: lamp, product_name: 'Brass Lamp', amount: 100 });
    const byName = await call(app, 'POST', '/api/bid', { product_name: 'Brass Lamp', bid_amount: 150, user_id: u.username }, u.token);
    expect(byName.statusCode, byName.body).toBe(201);
    expect(byName.json()).toMatchObject({ bid: { product_id: lamp, amount: 150 }, highest_bid: 150, wallet_balance: 850 });
    await expectMoneyInvariant(app);
  });

  it('409 AMBIGUOUS_PRODUCT for a name shared by two products in open auctions; a product in an ended auction does not count', async () => {
    const admin = await signUpAdmin(app);
    const v1 = await namedProduct(admin.token, 'Blue Vase');
    const v2 = await namedProduct(admin.token, 'Blue Vase');
    const clockA = await namedProduct(admin.token, 'Old Clock');
    const clockB = await namedProduct(admin.token, 'Old Clock');
    const a1 = await auctionOver(admin.token, [v1, clockA], HOUR);
    const a2 = await auctionOver(admin.token, [v2, clockB], 3 * HOUR);
    const u = await richBidder(app, 1000, [a1, a2]);

    const res = await call(app, 'POST', '/api/bid', { product_name: 'Blue Vase', bid_amount: 100 }, u.token);
    expectError(res, 409, 'AMBIGUOUS_PRODUCT');
    expect(await myBids(u.token)).toEqual([]);
    expect(await balanceOf(app, u.token)).toBe(1000);
    // Either one is still reachable by its id.
    expect((await bid(app, u.token, v2, 100)).statusCode).toBe(201);

    clock.advance(HOUR);
    const unique = await call(app, 'POST', '/api/bid', { product_name: 'Old Clock', bid_amount: 120 }, u.token);
    expect(unique.statusCode, unique.body).toBe(201);
    expect(unique.json().bid.product_id).toBe(clockB);
  });

  it('404 for an unknown product (by id or name), not recorded', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await auction(admin.token);
    const u = await richBidder(app, 1000, [auctionId]);
    expectError(await bid(app, u.token, 'no-such-product', 100), 404, 'NOT_FOUND');
    expectError(await call(app, 'POST', '/api/bid', { product_name: 'No Such Thing', bid_amount: 100 }, u.token), 404, 'NOT_FOUND');
    expect(await myBids(u.token)).toEqual([]);
    expect(await balanceOf(app, u.token)).toBe(1000);
  });

  it('409 PRODUCT_NOT_AVAILABLE for a product in no auction, NOT recorded as a bid', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId } = await auction(admin.token);
    const [loose] = await createProducts(app, admin.token, 1);
    const u = await richBidder(app, 1000, [auctionId]);
    expectError(await bid(app, u.token, loose!, 100), 409, 'PRODUCT_NOT_AVAILABLE');
    expect(await myBids(u.token)).toEqual([]);
    expect((await call(app, 'GET', `/api/bids?product_key=${loose}`, undefined, u.token)).json()).toEqual([]);
    expect(await balanceOf(app, u.token)).toBe(1000);
  });

  it('403 NOT_REGISTERED, recorded as failed and not debited', async () => {
    const admin = await signUpAdmin(app);
    const { productIds: [p] } = await auction(admin.token);
    const u = await richBidder(app, 1000);
    await expectRefusedAndRecorded(await bid(app, u.token, p!, 100), 403, 'NOT_REGISTERED', u.token, p!, 100, 1000);
    expect(await highest(u.token, p!)).toBe(0);
    await expectMoneyInvariant(app);
  });

  it('409 AUCTION_ENDED at and after valid_until, recorded as failed', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token, { endsIn: HOUR });
    const u = await richBidder(app, 1000, [auctionId]);
    clock.advance(HOUR - 1);
    expect((await bid(app, u.token, p!, 100)).statusCode).toBe(201);
    clock.advance(1);
    await expectRefusedAndRecorded(await bid(app, u.token, p!, 200), 409, 'AUCTION_ENDED', u.token, p!, 200, 900);
    expect(await highest(u.token, p!)).toBe(100);
    await expectMoneyInvariant(app);
  });

  it('409 PRODUCT_SOLD after settlement, recorded as failed; the unsold product is no longer in an auction', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p, unsold] } = await auction(admin.token, { products: 2 });
    const u = await richBidder(app, 1000, [auctionId]);
    expect((await bid(app, u.token, p!, 100)).statusCode).toBe(201);
    expect((await settle(admin.token, auctionId)).statusCode).toBe(200);
    await expectRefusedAndRecorded(await bid(app, u.token, p!, 500), 409, 'PRODUCT_SOLD', u.token, p!, 500, 900);
    expectError(await bid(app, u.token, unsold!, 500), 409, 'PRODUCT_NOT_AVAILABLE');
    expect((await myBids(u.token)).map((b) => b.status)).toEqual(['failed', 'won']);
    await expectMoneyInvariant(app);
  });

  it('409 BID_TOO_LOW with the spec sentence and en-IN amounts (₹1,000, ₹1,00,000, ₹300.5)', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2, p3] } = await auction(admin.token, { products: 3 });
    const big = await richBidder(app, 100_000, [auctionId]);
    const u = await richBidder(app, 100_000, [auctionId]);

    expect((await bid(app, big.token, p1!, 1000)).statusCode).toBe(201);
    expect((await expectRefusedAndRecorded(await bid(app, u.token, p1!, 1000), 409, 'BID_TOO_LOW', u.token, p1!, 1000, 100_000)).error).toBe(tooLow('₹1,000'));
    expect((await expectRefusedAndRecorded(await bid(app, u.token, p1!, 999.99), 409, 'BID_TOO_LOW', u.token, p1!, 999.99, 100_000)).error).toBe(tooLow('₹1,000'));

    expect((await bid(app, big.token, p2!, 300.5)).statusCode).toBe(201);
    expect(expectError(await bid(app, u.token, p2!, 300.5), 409, 'BID_TOO_LOW').error).toBe(tooLow('₹300.5'));
    expect(expectError(await bid(app, u.token, p2!, 12), 409, 'BID_TOO_LOW').error).toBe(tooLow('₹300.5'));

    expect((await bid(app, u.token, p3!, 90_000)).statusCode).toBe(201);
    // Raising to exactly the whole wallet uses the own hold (₹10,000 free + ₹90,000 held).
    expect((await bid(app, u.token, p3!, 100_000)).json()).toMatchObject({ highest_bid: 100_000, wallet_balance: 0 });
    expect(expectError(await bid(app, big.token, p3!, 100_000), 409, 'BID_TOO_LOW').error).toBe(tooLow('₹1,00,000'));
    // The minimum increment is ₹1: a bid above the highest but by less than ₹1 is still too low.
    expectError(await bid(app, big.token, p2!, 301), 409, 'BID_TOO_LOW');
    expect((await bid(app, big.token, p2!, 301.5)).statusCode).toBe(201);

    const reasons = (await myBids(u.token)).filter((b) => b.status === 'failed').map((b) => b.reason);
    expect(reasons).toEqual(['BID_TOO_LOW', 'BID_TOO_LOW', 'BID_TOO_LOW', 'BID_TOO_LOW']);
    await expectMoneyInvariant(app);
  });

  it('402 INSUFFICIENT_FUNDS when the balance (plus an own lead) cannot pay; recorded, not debited', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2] } = await auction(admin.token, { products: 2 });
    const u = await richBidder(app, 500, [auctionId]);
    await expectRefusedAndRecorded(await bid(app, u.token, p1!, 500.01), 402, 'INSUFFICIENT_FUNDS', u.token, p1!, 500.01, 500);
    expect((await bid(app, u.token, p1!, 300)).statusCode).toBe(201);
    // ₹200 free: another product cannot take ₹201, but the own lead can rise to ₹500.
    await expectRefusedAndRecorded(await bid(app, u.token, p2!, 201), 402, 'INSUFFICIENT_FUNDS', u.token, p2!, 201, 200);
    await expectRefusedAndRecorded(await bid(app, u.token, p1!, 500.5), 402, 'INSUFFICIENT_FUNDS', u.token, p1!, 500.5, 200);
    expect((await bid(app, u.token, p1!, 500)).json()).toMatchObject({ wallet_balance: 0, highest_bid: 500 });
    // The largest amount the schema allows is still a valid request: it is refused for money, not shape.
    await expectRefusedAndRecorded(await bid(app, u.token, p2!, 1_000_000_000), 402, 'INSUFFICIENT_FUNDS', u.token, p2!, 1_000_000_000, 0);
    await expectMoneyInvariant(app);
  });

  it('user_id / username naming the caller (id, id as text, username in any case) are accepted; anyone else is 403 and not recorded', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    const u = await richBidder(app, 1000, [auctionId]);
    const other = await richBidder(app, 1000, [auctionId]);
    let amount = 10;
    for (const names of [{ user_id: u.username }, { user_id: u.user.id }, { user_id: String(u.user.id) }, { username: u.username.toUpperCase() }, { username: u.username, user_id: u.user.id }]) {
      amount += 10;
      const res = await call(app, 'POST', '/api/bid', { product_id: p, bid_amount: amount, ...names }, u.token);
      expect(res.statusCode, `${JSON.stringify(names)}: ${res.body}`).toBe(201);
    }
    for (const names of [{ user_id: other.username }, { user_id: other.user.id }, { username: other.username }, { username: u.username, user_id: other.user.id }, { user_id: 'nobody' }]) {
      expectError(await call(app, 'POST', '/api/bid', { product_id: p, bid_amount: 500, ...names }, u.token), 403, 'FORBIDDEN');
    }
    expect((await myBids(u.token)).map((b) => b.amount)).toEqual([60, 50, 40, 30, 20]);
    expect(await balanceOf(app, u.token)).toBe(940);
    await expectMoneyInvariant(app);
  });
});

describe('POST /api/bid: bad input is 400, never 500, never recorded', () => {
  let token: string;
  let productId: string;
  beforeEach(async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    productId = p!;
    token = (await richBidder(app, 1000, [auctionId])).token;
  });
  /** 'P' stands for the real product id, which exists only once the test runs. */
  const fill = (body: Record<string, unknown>) => (body.product_id === 'P' ? { ...body, product_id: productId } : body);
  afterEach(async () => {
    expect(await myBids(token)).toEqual([]);
    expect(await balanceOf(app, token)).toBe(1000);
  });

  it.each([
    ['missing amount', { product_id: 'P' }, 'bid_amount'],
    ['missing product', { bid_amount: 100 }, 'product_name'],
    ['empty product name', { product_name: '', bid_amount: 100 }, 'product_name'],
    ['blank product id', { product_id: '   ', bid_amount: 100 }, 'product_id'],
    ['negative amount', { product_id: 'P', bid_amount: -5 }, 'bid_amount'],
    ['zero', { product_id: 'P', bid_amount: 0 }, 'bid_amount'],
    ['three decimals', { product_id: 'P', bid_amount: 400.123 }, 'bid_amount'],
    // Found by the fuzzer: a positive amount below a paisa used to round to 0 and fail a CHECK (500).
    ['below a paisa', { product_id: 'P', bid_amount: 1e-9 }, 'bid_amount'],
    ['the smallest double', { product_id: 'P', bid_amount: 5e-324 }, 'bid_amount'],
    ['huge', { product_id: 'P', bid_amount: 1e12 }, 'bid_amount'],
    ['just over the limit', { product_id: 'P', bid_amount: 1_000_000_000.01 }, 'bid_amount'],
  ])('%s → 400 "Please enter a valid bid amount"', async (_label, body, field) => {
    const err = expectError(await call(app, 'POST', '/api/bid', fill(body), token), 400, 'VALIDATION');
    expect(err.error).toBe(BID_INVALID);
    expect(err.field).toBe(field);
  });

  it.each([
    ['a numeric string', '300'],
    ['"NaN"', 'NaN'],
    ['null', null],
    ['an object', { value: 300 }],
    ['an array', [300]],
    ['an empty array', []],
    ['a boolean', true],
  ])('amount as %s → 400 VALIDATION (no coercion)', async (_label, amount) => {
    const err = expectError(await call(app, 'POST', '/api/bid', { product_id: productId, bid_amount: amount }, token), 400, 'VALIDATION');
    expect(err.field).toBe('bid_amount');
  });

  it.each([
    ['product_id as a number', { product_id: 123, bid_amount: 100 }],
    ['product_name as an object', { product_name: { id: 'x' }, bid_amount: 100 }],
    ['user_id as an object', { product_id: 'P', bid_amount: 100, user_id: { id: 1 } }],
  ])('%s → 400 VALIDATION', async (_label, body) => {
    expectError(await call(app, 'POST', '/api/bid', fill(body), token), 400, 'VALIDATION');
  });

  it.each([
    ['1e400 (Infinity)', `{"product_id":"P","bid_amount":1e400}`],
    ['NaN literal', `{"product_id":"P","bid_amount":NaN}`],
    ['a JSON array body', '[1,2]'],
    ['a JSON null body', 'null'],
    ['broken JSON', '{"bid_amount": '],
  ])('raw body %s → 400 VALIDATION', async (_label, raw) => {
    const res = await app.inject({
      method: 'POST', url: '/api/bid', payload: raw.replace('"P"', JSON.stringify(productId)),
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    });
    expectError(res, 400, 'VALIDATION');
  });
});

describe('GET /api/user-bids and /api/user-bids/auction/{id}', () => {
  it('lists only the caller’s bids, newest first, with the exact shape; per auction filters; 404 unknown auction', async () => {
    const admin = await signUpAdmin(app);
    const a1 = await auction(admin.token);
    const a2 = await auction(admin.token);
    const u = await richBidder(app, 1000, [a1.auctionId, a2.auctionId]);
    const other = await richBidder(app, 1000, [a1.auctionId]);
    const p1 = a1.productIds[0]!;
    const p2 = a2.productIds[0]!;
    const t0 = clock.t;
    const b1 = (await bid(app, u.token, p1, 100)).json().bid.bid_id;
    clock.advance(1000);
    await bid(app, other.token, p1, 200);
    clock.advance(1000);
    const b2 = (await bid(app, u.token, p2, 300)).json().bid.bid_id;
    clock.advance(1000);
    expectError(await bid(app, u.token, p1, 150), 409, 'BID_TOO_LOW');

    const res = await call(app, 'GET', '/api/user-bids', undefined, u.token);
    expect(res.statusCode).toBe(200);
    const list = res.json();
    expect(list).toHaveLength(3);
    expect(list[2]).toEqual({
      bid_id: b1, product_id: p1, product_name: `Product ${p1}`, auction_id: a1.auctionId, auction_name: `Auction ${a1.auctionId}`,
      amount: 100, timestamp: iso(t0), status: 'outbid', reason: null,
    });
    expect(list.map((b: UserBidJson) => [b.product_id, b.amount, b.status, b.timestamp])).toEqual([
      [p1, 150, 'failed', iso(t0 + 3000)], [p2, 300, 'success', iso(t0 + 2000)], [p1, 100, 'outbid', iso(t0)],
    ]);
    expect(list[1].bid_id).toBe(b2);

    const inA1 = (await call(app, 'GET', `/api/user-bids/auction/${a1.auctionId}`, undefined, u.token)).json();
    expect(inA1.map((b: UserBidJson) => b.amount)).toEqual([150, 100]);
    const inA2 = (await call(app, 'GET', `/api/user-bids/auction/${a2.auctionId}`, undefined, u.token)).json();
    expect(inA2.map((b: UserBidJson) => b.bid_id)).toEqual([b2]);
    expect((await call(app, 'GET', `/api/user-bids/auction/${a2.auctionId}`, undefined, other.token)).json()).toEqual([]);
    expectError(await call(app, 'GET', '/api/user-bids/auction/nope', undefined, u.token), 404, 'NOT_FOUND');
  });
});

describe('GET /api/bids?product_key=', () => {
  it('lists a product’s bids newest first; bidders masked for users and other admins, named for the owning admin', async () => {
    const owner = await signUpAdmin(app);
    const otherAdmin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(owner.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const t0 = clock.t;
    const first = (await bid(app, asha.token, p!, 100)).json().bid.bid_id;
    clock.advance(1000);
    const second = (await bid(app, ravi.token, p!, 200)).json().bid.bid_id;
    clock.advance(1000);
    expectError(await bid(app, asha.token, p!, 150), 409, 'BID_TOO_LOW');

    const asUser = await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, asha.token);
    expect(asUser.statusCode).toBe(200);
    const rows = asUser.json();
    expect(rows).toEqual([
      { bid_id: expect.any(Number), auction_id: auctionId, amount: 150, status: 'failed', timestamp: iso(t0 + 2000), bidder: mask(asha.username) },
      { bid_id: second, auction_id: auctionId, amount: 200, status: 'success', timestamp: iso(t0 + 1000), bidder: mask(ravi.username) },
      { bid_id: first, auction_id: auctionId, amount: 100, status: 'outbid', timestamp: iso(t0), bidder: mask(asha.username) },
    ]);
    expect(rows[0].bidder).toMatch(/^u\*\*\*\d$/);
    const asOther = (await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, otherAdmin.token)).json();
    expect(asOther.map((b: { bidder: string }) => b.bidder)).toEqual([mask(asha.username), mask(ravi.username), mask(asha.username)]);
    const asOwner = (await call(app, 'GET', `/api/bids?product_key=${p}`, undefined, owner.token)).json();
    expect(asOwner.map((b: { bidder: string }) => b.bidder)).toEqual([asha.username, ravi.username, asha.username]);
  });

  it('400 without product_key, 404 for an unknown product, 401 without a token', async () => {
    const u = await signUpUser(app);
    expect(expectError(await call(app, 'GET', '/api/bids', undefined, u.token), 400, 'VALIDATION').field).toBe('product_key');
    expectError(await call(app, 'GET', '/api/bids?product_key=', undefined, u.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/bids?product_key=nope', undefined, u.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'GET', '/api/bids?product_key=nope'), 401, 'UNAUTHENTICATED');
  });
});

describe('GET /api/highest-bid', () => {
  it('is 0 with no bid, the leader’s amount after bids, for users and admins; 400 / 404', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    const u = await richBidder(app, 1000, [auctionId]);
    const res = await call(app, 'GET', `/api/highest-bid?product_key=${p}`, undefined, u.token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ highest_bid: 0 });
    await bid(app, u.token, p!, 123.45);
    expect(await highest(u.token, p!)).toBe(123.45);
    expect(await highest(admin.token, p!)).toBe(123.45);
    expectError(await call(app, 'GET', '/api/highest-bid', undefined, u.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/highest-bid?product_key=nope', undefined, u.token), 404, 'NOT_FOUND');
  });
});

describe('GET /api/time-left', () => {
  it('counts down to valid_until and then reports ended', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token, { endsIn: HOUR });
    const u = await signUpUser(app);
    const end = iso(clock.t + HOUR);
    const timeLeft = async () => {
      const res = await call(app, 'GET', `/api/time-left?product_key=${p}`, undefined, u.token);
      expect(res.statusCode).toBe(200);
      return res.json<Record<string, unknown>>();
    };
    expect(await timeLeft()).toEqual({ product_key: p, auction_id: auctionId, valid_until: end, seconds_left: 3600, ended: false });
    clock.advance(1500);
    expect(await timeLeft()).toMatchObject({ seconds_left: 3599, ended: false });
    clock.advance(HOUR - 1500);
    expect(await timeLeft()).toEqual({ product_key: p, auction_id: auctionId, valid_until: end, seconds_left: 0, ended: true });
  });

  it('a settled auction is ended; 400 without product_key; 404 unknown', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    const u = await richBidder(app, 1000, [auctionId]);
    await bid(app, u.token, p!, 100);
    clock.advance(1000);
    await settle(admin.token, auctionId);
    expect((await call(app, 'GET', `/api/time-left?product_key=${p}`, undefined, admin.token)).json())
      .toMatchObject({ auction_id: auctionId, valid_until: iso(clock.t), seconds_left: 0, ended: true });
    expectError(await call(app, 'GET', '/api/time-left', undefined, u.token), 400, 'VALIDATION');
    expectError(await call(app, 'GET', '/api/time-left?product_key=nope', undefined, u.token), 404, 'NOT_FOUND');
  });
});

describe('POST /api/wallet', () => {
  it('returns the caller’s balance; a username or user_id naming the caller is fine, anyone else is 403', async () => {
    const asha = await richBidder(app, 750);
    const ravi = await signUpUser(app);
    for (const body of [{}, { username: asha.username }, { username: asha.username.toUpperCase() }, { user_id: asha.user.id }, { user_id: asha.username }]) {
      const res = await call(app, 'POST', '/api/wallet', body, asha.token);
      expect(res.statusCode, JSON.stringify(body)).toBe(200);
      expect(res.json()).toEqual({ wallet_balance: 750 });
    }
    expectError(await call(app, 'POST', '/api/wallet', { username: ravi.username }, asha.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/wallet', { user_id: ravi.user.id }, asha.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/wallet', { username: 'nobody_here' }, asha.token), 403, 'FORBIDDEN');
    expect(await balanceOf(app, ravi.token)).toBe(0);
  });
});

describe('POST /api/wallet/topup', () => {
  it('accepts ₹10 and ₹1,00,000 inclusive and two decimals exactly', async () => {
    const u = await signUpUser(app);
    const min = await call(app, 'POST', '/api/wallet/topup', { amount: 10 }, u.token);
    expect(min.statusCode, min.body).toBe(200);
    expect(min.json()).toEqual({
      message: 'Added ₹10 to your wallet', wallet_balance: 10,
      transaction: { _id: expect.any(String), type: 'topup', amount: 10, timestamp: iso(clock.t), meta: { notes: null, product_id: null, product_name: null } },
    });
    const max = await call(app, 'POST', '/api/wallet/topup', { amount: 100_000 }, u.token);
    expect(max.json()).toMatchObject({ message: 'Added ₹1,00,000 to your wallet', wallet_balance: 100_010 });
    expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10.55 }, u.token)).json()).toMatchObject({ wallet_balance: 100_020.55, transaction: { amount: 10.55 } });
    // Paise, not floats: 10.1 + 10.2 is 20.3 exactly.
    const v = await signUpUser(app);
    await call(app, 'POST', '/api/wallet/topup', { amount: 10.1 }, v.token);
    expect((await call(app, 'POST', '/api/wallet/topup', { amount: 10.2 }, v.token)).json().wallet_balance).toBe(20.3);
    expect(await balanceOf(app, u.token)).toBe(100_020.55);
    await expectMoneyInvariant(app);
  });

  it.each([
    ['9.99', 9.99], ['100000.01', 100_000.01], ['0', 0], ['-10', -10], ['3 decimals', 10.555], ['missing', undefined], ['huge', 1e15],
  ])('%s → 400 with the spec sentence', async (_label, amount) => {
    const u = await signUpUser(app);
    const err = expectError(await call(app, 'POST', '/api/wallet/topup', amount === undefined ? {} : { amount }, u.token), 400, 'VALIDATION');
    expect(err.error).toBe(TOPUP_INVALID);
    expect(err.field).toBe('amount');
    expect(await balanceOf(app, u.token)).toBe(0);
    expect(await myTransactions(u.token)).toEqual([]);
  });

  it.each([['"500"', '500'], ['null', null], ['an array', [500]], ['an object', { amount: 500 }]])('amount as %s → 400 VALIDATION', async (_label, amount) => {
    const u = await signUpUser(app);
    expect(expectError(await call(app, 'POST', '/api/wallet/topup', { amount }, u.token), 400, 'VALIDATION').field).toBe('amount');
    expect(await balanceOf(app, u.token)).toBe(0);
  });
});

describe('GET /api/wallet/transactions', () => {
  it('newest first: string _id, type, positive amount, notes, product id and product name', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    clock.advance(1000);
    await bid(app, asha.token, p!, 400);
    clock.advance(1000);
    await bid(app, ravi.token, p!, 500);
    const res = await call(app, 'GET', '/api/wallet/transactions', undefined, asha.token);
    expect(res.statusCode).toBe(200);
    const txs: TxJson[] = res.json().transactions;
    expect(txs.map((t) => [t.type, t.amount, t.meta.product_id, t.meta.product_name, t.timestamp])).toEqual([
      ['refund', 400, p, `Product ${p}`, iso(clock.t)], ['bid', 400, p, `Product ${p}`, iso(clock.t - 1000)], ['topup', 1000, null, null, iso(clock.t - 2000)],
    ]);
    for (const t of txs) {
      expect(typeof t._id).toBe('string');
      expect(t._id).toMatch(/^\d+$/);
      expect(Object.keys(t).sort()).toEqual(['_id', 'amount', 'meta', 'timestamp', 'type']);
      expect(Object.keys(t.meta).sort()).toEqual(['notes', 'product_id', 'product_name']);
    }
    expect(Number(txs[0]!._id)).toBeGreaterThan(Number(txs[1]!._id));
    expect(txs[0]!.meta.notes).toEqual(expect.stringContaining('Outbid'));
    // Only the caller's own rows.
    expect((await myTransactions(ravi.token)).map((t) => t.type)).toEqual(['bid', 'topup']);
  });

  it('the signed amounts (top-ups and refunds +, holds −) sum to the balance through outbids, cancels, reinstatements and a sale', async () => {
    const admin = await signUpAdmin(app);
    const lamp = await namedProduct(admin.token, 'Brass Lamp');
    const vase = await namedProduct(admin.token, 'Blue Vase');
    const auctionId = await auctionOver(admin.token, [lamp, vase]);
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    const placed = (res: LightMyRequestResponse) => expect(res.statusCode, res.body).toBe(201);
    expect((await call(app, 'POST', '/api/wallet/topup', { amount: 250.75 }, asha.token)).statusCode).toBe(200);
    placed(await bid(app, asha.token, lamp, 300));
    placed(await bid(app, ravi.token, lamp, 400.5));
    const raviLead = (await myBids(ravi.token))[0]!.bid_id;
    placed(await bid(app, asha.token, vase, 120.25));
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: raviLead }, ravi.token)).statusCode).toBe(200);
    placed(await bid(app, asha.token, vase, 150));
    expectError(await bid(app, asha.token, vase, 100_000), 402, 'INSUFFICIENT_FUNDS');
    clock.advance(3 * HOUR);
    expect((await settle(admin.token, auctionId)).statusCode).toBe(200);

    for (const who of [asha, ravi]) {
      const txs = await myTransactions(who.token);
      const paise = txs.reduce((sum, t) => sum + (t.type === 'bid' ? -1 : 1) * Math.round(t.amount * 100), 0);
      expect(paise / 100).toBe(await balanceOf(app, who.token));
      for (const t of txs.filter((x) => x.meta.product_id !== null)) {
        expect(t.meta.product_name).toBe(t.meta.product_id === lamp ? 'Brass Lamp' : 'Blue Vase');
      }
    }
    // Asha: 1000 + 250.75, won the lamp (reinstated at ₹300 after Ravi's cancel) and the vase at ₹150.
    expect(await balanceOf(app, asha.token)).toBe(800.75);
    expect(await balanceOf(app, ravi.token)).toBe(1000);
    await expectMoneyInvariant(app);
  });
});

describe('POST /api/rollback-bid', () => {
  async function setup() {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p] } = await auction(admin.token, { endsIn: HOUR });
    const asha = await richBidder(app, 1000, [auctionId]);
    const ravi = await richBidder(app, 1000, [auctionId]);
    return { admin, auctionId, p: p!, asha, ravi };
  }

  it('cancels the caller’s leading bid: refund, highest falls back; bid_id as a number or a numeric string', async () => {
    const { p, asha, ravi } = await setup();
    const first = (await bid(app, asha.token, p, 300)).json().bid.bid_id;
    const res = await call(app, 'POST', '/api/rollback-bid', { bid_id: first, username: asha.username }, asha.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Bid cancelled and amount refunded successfully!', wallet_balance: 1000, highest_bid: 0 });
    expect((await myBids(asha.token))[0]).toMatchObject({ bid_id: first, status: 'rolledback' });

    const second = (await bid(app, ravi.token, p, 200)).json().bid.bid_id;
    const asText = await call(app, 'POST', '/api/rollback-bid', { bid_id: String(second) }, ravi.token);
    expect(asText.statusCode, asText.body).toBe(200);
    expect(asText.json()).toMatchObject({ wallet_balance: 1000, highest_bid: 0 });
    expect(await highest(ravi.token, p)).toBe(0);
    await expectMoneyInvariant(app);
  });

  it('403 for another user’s bid (or a body naming someone else), 404 unknown, 400 bad ids', async () => {
    const { p, asha, ravi } = await setup();
    const id = (await bid(app, asha.token, p, 300)).json().bid.bid_id;
    expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: id }, ravi.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: id, username: ravi.username }, asha.token), 403, 'FORBIDDEN');
    expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: 999_999 }, asha.token), 404, 'NOT_FOUND');
    expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: '999999' }, asha.token), 404, 'NOT_FOUND');
    expect(expectError(await call(app, 'POST', '/api/rollback-bid', {}, asha.token), 400, 'VALIDATION').field).toBe('bid_id');
    for (const bad of ['abc', '', 0, -1, 1.5, null, [id], { id }]) {
      expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: bad }, asha.token), 400, 'VALIDATION');
    }
    expect(await balanceOf(app, asha.token)).toBe(700);
    expect(await highest(asha.token, p)).toBe(300);
    await expectMoneyInvariant(app);
  });

  it('409 BID_NOT_ACTIVE for outbid, failed and already cancelled bids', async () => {
    const { p, asha, ravi } = await setup();
    const outbid = (await bid(app, asha.token, p, 300)).json().bid.bid_id;
    await bid(app, ravi.token, p, 400);
    expectError(await bid(app, asha.token, p, 350), 409, 'BID_TOO_LOW');
    const failed = (await myBids(asha.token))[0]!.bid_id;
    const lead = (await bid(app, asha.token, p, 500)).json().bid.bid_id;
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: lead }, asha.token)).statusCode).toBe(200);
    for (const id of [outbid, failed, lead]) {
      expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: id }, asha.token), 409, 'BID_NOT_ACTIVE');
    }
    // Ravi's 400 was reinstated when Asha cancelled.
    expect(await highest(asha.token, p)).toBe(400);
    expect(await balanceOf(app, asha.token)).toBe(1000);
    expect(await balanceOf(app, ravi.token)).toBe(600);
    await expectMoneyInvariant(app);
  });

  it('409 AUCTION_ENDED after the end: the hold stays', async () => {
    const { p, asha } = await setup();
    const id = (await bid(app, asha.token, p, 300)).json().bid.bid_id;
    clock.advance(HOUR);
    expectError(await call(app, 'POST', '/api/rollback-bid', { bid_id: id }, asha.token), 409, 'AUCTION_ENDED');
    expect(await balanceOf(app, asha.token)).toBe(700);
    expect((await myBids(asha.token))[0]!.status).toBe('success');
    await expectMoneyInvariant(app);
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
    ['GET', '/api/auctions/x/products', undefined],
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
