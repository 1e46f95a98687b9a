/**
 * The bidder's side of the API, bidding: placing a bid (every error code a bidder can meet, and the
 * rule that a refusal is recorded as a `failed` bid and never debited), bad input, and cancelling a bid.
 * Shared setup (a fresh app per test on a movable clock) in test/bidder-helpers.ts.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR, balanceOf, bid, call, createProducts, expectError, expectMoneyInvariant, richBidder, signUpAdmin } from '../../test/helpers.js';
import { app, auction, auctionOver, clock, highest, iso, myBids, myTransactions, namedProduct, settle, withApp } from '../../test/bidder-helpers.js';

withApp();

const BID_INVALID = 'Please enter a valid bid amount';
const tooLow = (n: string) => `Bid must be higher than current highest bid of ${n}`;

/** A refused bid: the error, then the `failed` row with its reason at the top of the bidder's list, nothing debited. */
async function expectRefusedAndRecorded(res: LightMyRequestResponse, status: number, code: string, token: string, productId: string, amount: number, balanceBefore: number) {
  const body = expectError(res, status, code);
  const [latest] = await myBids(token);
  expect(latest).toMatchObject({ product_id: productId, amount, status: 'failed', reason: code });
  expect(await balanceOf(app, token)).toBe(balanceBefore);
  expect((await myTransactions(token)).filter((t) => t.type === 'bid' && t.meta.product_id === productId && t.amount === amount)).toEqual([]);
  return body;
}

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
        amount: 300.25, timestamp: iso(clock.t), status: 'success', state: 'success', reason: null, max_amount: null, buy_now: false,
      },
      highest_bid: 300.25,
      wallet_balance: 699.75,
      version: 1,
      // A plain bid (no maximum) that leads; the next must be ₹1 more (flat rule).
      leading: true,
      max_amount: null,
      min_next_bid: 301.25,
      min_next_bid_all_in: 301.25,
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
    // A draft is its admin's alone: the bidder reads nothing of it; its admin sees no bids.
    expectError(await call(app, 'GET', `/api/bids?product_key=${loose}`, undefined, u.token), 404, 'NOT_FOUND');
    expect((await call(app, 'GET', `/api/bids?product_key=${loose}`, undefined, admin.token)).json()).toEqual([]);
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
    expect((await myBids(u.token)).map((b) => b.state)).toEqual(['failed', 'won']);
    await expectMoneyInvariant(app);
  });

  it('409 BID_TOO_LOW with the spec sentence and en-IN amounts (₹1,000, ₹1,00,000, ₹300.50)', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [p1, p2, p3] } = await auction(admin.token, { products: 3 });
    const big = await richBidder(app, 100_000, [auctionId]);
    const u = await richBidder(app, 100_000, [auctionId]);

    expect((await bid(app, big.token, p1!, 1000)).statusCode).toBe(201);
    expect((await expectRefusedAndRecorded(await bid(app, u.token, p1!, 1000), 409, 'BID_TOO_LOW', u.token, p1!, 1000, 100_000)).error).toBe(tooLow('₹1,000'));
    expect((await expectRefusedAndRecorded(await bid(app, u.token, p1!, 999.99), 409, 'BID_TOO_LOW', u.token, p1!, 999.99, 100_000)).error).toBe(tooLow('₹1,000'));

    expect((await bid(app, big.token, p2!, 300.5)).statusCode).toBe(201);
    expect(expectError(await bid(app, u.token, p2!, 300.5), 409, 'BID_TOO_LOW').error).toBe(tooLow('₹300.50'));
    expect(expectError(await bid(app, u.token, p2!, 12), 409, 'BID_TOO_LOW').error).toBe(tooLow('₹300.50'));

    expect((await bid(app, u.token, p3!, 90_000)).statusCode).toBe(201);
    // Raising to exactly the whole wallet uses the own hold (₹10,000 free + ₹90,000 held).
    expect((await bid(app, u.token, p3!, 100_000)).json()).toMatchObject({ highest_bid: 100_000, wallet_balance: 0 });
    expect(expectError(await bid(app, big.token, p3!, 100_000), 409, 'BID_TOO_LOW').error).toBe(tooLow('₹1,00,000'));
    // The minimum increment is ₹1: a bid above the highest but by less than ₹1 is still too low.
    expectError(await bid(app, big.token, p2!, 301), 409, 'BID_TOO_LOW');
    expect((await bid(app, big.token, p2!, 301.5)).statusCode).toBe(201);

    const reasons = (await myBids(u.token)).filter((b) => b.state === 'failed').map((b) => b.reason);
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
