/**
 * Admin catalogue API, reads: auctions and their products, and the figures built on them
 * (stats, reports, settings).
 * Shared setup (a fresh app per test on a clock the test moves) in test/catalogue-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { balanceOf, bid, call, createProducts, expectError, expectMoneyInvariant, HOUR, makeApp, richBidder, signUpAdmin } from '../../../test/helpers.js';
import {
  type AuctionJson, adminAuction, adminProducts, app, byId, clock, defaultRules, get, iso, newAuction, placeBid, productJson, setApp, sortedIds, START, unassigned,
  withApp,
} from '../../../test/catalogue-helpers.js';

describe('reads: GET /api/admin/auction/{id}, all_auctions, auctions/my, auction_products/{id}, auction/{id}/products', () => {
  withApp();

  it('any admin reads any auction and its products; all_auctions lists every admin’s auctions, auctions/my the caller’s own; unknown ids are 404', async () => {
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
      status: 'active', created_by: admin.admin.id, created_at: iso(START), settled_at: null, ...defaultRules(iso(START + 2 * HOUR)),
      // Its creator also sees each bidder's count of cancels (docs/bidding.md#cancelling-a-bid).
      bidder_cancels: [{ user_id: bidder.user.id, username: bidder.user.username, cancels: 0 }],
    });
    const { bidder_cancels: _cancels, ...shared } = own;
    expect(await adminAuction(a1, other.token)).toEqual(shared);

    // Only the owner sees the reserve (none here): reserve_price is null for them and absent for the other admin.
    for (const [token, viewer] of [[admin.token, 'owner'], [other.token, 'other']] as const) {
      const products = [productJson(p!, { auction_id: a1 }, viewer), productJson(q!, { auction_id: a1, highest_bid: 42.25, bid_count: 1 }, viewer)];
      expect(await adminProducts(a1, token)).toEqual(products);
      expect((await get(`/api/admin/auction_products/${a1}`, token)).json()).toEqual({ products });
    }

    const all = (await get('/api/admin/all_auctions', admin.token)).json<{ auctions: AuctionJson[] }>();
    expect(Object.keys(all)).toEqual(['auctions']);
    expect(sortedIds(all.auctions)).toEqual([a1, a2].sort());
    // Lists leave the counts of cancels out: only the one auction's read has them.
    expect(byId(all.auctions)[a1]).toEqual(shared);
    expect(byId(all.auctions)[a2]).toMatchObject({ created_by: other.admin.id, created_at: iso(START + 60_000), registrations: [] });
    expect((await get('/api/admin/auctions/my', admin.token)).json()).toEqual([shared]);
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

  it('stats and reports after a known scenario (revenue = Σ won, pending = Σ leading, bids exclude failed and cancelled)', async () => {
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
    const cancelled = await placeBid(y.token, a2!, 60); // cancelled: not counted
    expect((await call(app, 'POST', '/api/rollback-bid', { bid_id: cancelled.bid_id }, y.token)).statusCode).toBe(200);
    await placeBid(x.token, b0!, 300);
    await placeBid(x.token, o0!, 77); // another admin's auction: not in these figures
    clock.advance(HOUR);
    expect((await call(app, 'POST', `/api/admin/auction/${A2}/settle`, undefined, admin.token)).statusCode).toBe(200);

    expect((await get('/api/admin/stats', admin.token)).json()).toEqual({
      total_auctions: 2, active_auctions: 1, total_products: 5, unassigned_products: 1, total_bids: 4, revenue: 300, pending: 350,
    });
    expect((await get('/api/admin/stats', other.token)).json()).toEqual({
      total_auctions: 1, active_auctions: 1, total_products: 1, unassigned_products: 0, total_bids: 1, revenue: 0, pending: 77,
    });

    const reports = (await get('/api/admin/reports', admin.token)).json<{ auctions: { id: string }[]; products: { id: string }[] }>();
    expect(Object.keys(reports).sort()).toEqual(['auctions', 'products']);
    expect(reports.auctions).toHaveLength(2);
    expect(byId(reports.auctions)).toEqual({
      [A1]: { id: A1, name: `Auction ${A1}`, valid_until: iso(START + 10 * HOUR), status: 'active', product_count: 3, bid_count: 3, revenue: 0, pending: 350 },
      [A2]: { id: A2, name: `Auction ${A2}`, valid_until: iso(START + HOUR), status: 'settled', product_count: 1, bid_count: 1, revenue: 300, pending: 0 },
    });
    expect(reports.products).toHaveLength(5);
    const row = (id: string, status: string, auction_id: string | null, bid_count: number, highest_bid: number) =>
      ({ id, name: `Product ${id}`, description: `Description of ${id}`, status, auction_id, bid_count, highest_bid });
    expect(byId(reports.products)).toEqual({
      [a0!]: row(a0!, 'available', A1, 2, 150),
      [a1!]: row(a1!, 'available', A1, 1, 200),
      [a2!]: row(a2!, 'available', A1, 0, 0), // its one bid was cancelled
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
      auto_settle: false, admin_signup: 'open', min_increment: 1, live_frame_ms: 30, timezone: 'Asia/Kolkata', soft_close_s: 0, max_extension_s: 3600, media_max_mb: 8,
    });
  });

  it('settings follow the configuration, and TIMEZONE really decides how valid_until is read', async () => {
    await app.close();
    setApp(await makeApp({ autoSettle: true, adminSignup: 'closed', liveFrameMs: 0, timeZone: 'UTC', softCloseS: 90, maxExtensionS: 600, mediaMaxMb: 2 }, { now: clock.now }));
    const admin = await signUpAdmin(app);
    expect((await get('/api/admin/settings', admin.token)).json()).toEqual({
      auto_settle: true, admin_signup: 'closed', min_increment: 1, live_frame_ms: 0, timezone: 'UTC', soft_close_s: 90, max_extension_s: 600, media_max_mb: 2,
    });
    const [p] = await createProducts(app, admin.token, 1);
    const res = await call(app, 'POST', '/api/admin/auction', { id: 'UTC-1', name: 'In UTC', valid_until: '2026-11-24T07:45', product_ids: [p] }, admin.token);
    expect(res.json().auction.valid_until).toBe('2026-11-24T07:45:00.000Z');
  });
});
