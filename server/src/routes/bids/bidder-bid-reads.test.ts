/**
 * The bidder's side of the API, bid reads: the caller's bids, a product's bids, the highest bid and
 * the time left.
 * Shared setup (a fresh app per test on a movable clock) in test/bidder-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { HOUR, bid, call, expectError, richBidder, signUpAdmin, signUpUser } from '../../test/helpers.js';
import { type UserBidJson, app, auction, clock, highest, iso, settle, withApp } from '../../test/bidder-helpers.js';

withApp();

const mask = (username: string) => `${username[0]}***${username.at(-1)}`;

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
      amount: 100, timestamp: iso(t0), status: 'failed', state: 'outbid', reason: null, max_amount: null, buy_now: false,
      auction_valid_until: iso(t0 + 2 * HOUR), auction_status: 'active', auction_cancel_policy: 'until_end',
    });
    expect(list.map((b: UserBidJson & { state: string }) => [b.product_id, b.amount, b.status, b.state, b.timestamp])).toEqual([
      [p1, 150, 'failed', 'failed', iso(t0 + 3000)], [p2, 300, 'success', 'success', iso(t0 + 2000)], [p1, 100, 'failed', 'outbid', iso(t0)],
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
      { bid_id: expect.any(Number), auction_id: auctionId, amount: 150, status: 'failed', state: 'failed', timestamp: iso(t0 + 2000), bidder: mask(asha.username), buy_now: false },
      { bid_id: second, auction_id: auctionId, amount: 200, status: 'success', state: 'success', timestamp: iso(t0 + 1000), bidder: mask(ravi.username), buy_now: false },
      { bid_id: first, auction_id: auctionId, amount: 100, status: 'failed', state: 'outbid', timestamp: iso(t0), bidder: mask(asha.username), buy_now: false },
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
