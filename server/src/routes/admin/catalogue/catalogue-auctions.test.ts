/**
 * Admin catalogue API, auctions: create, edit and delete.
 * Shared setup (a fresh app per test on a clock the test moves) in test/catalogue-helpers.ts.
 */
import { describe, expect, it } from 'vitest';
import { balanceOf, call, createProducts, expectError, expectMoneyInvariant, HOUR, richBidder, signUpAdmin } from '../../../test/helpers.js';
import {
  type AuctionJson, adminAuction, adminProducts, app, bidsOf, byId, clock, defaultRules, expectValidation, FUTURE, get, inHours, iso, newAuction, placeBid,
  productJson, raw, sortedIds, START, transactionsOf, unassigned, withApp,
} from '../../../test/catalogue-helpers.js';

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
      id: 'Diwali-2026', name: 'Diwali sale', valid_until: '2026-11-25T15:30:00.000+05:30', product_ids: [p!, q!].sort(), registrations: [], product_count: 2,
      status: 'active', created_by: admin.admin.id, created_at: iso(START), settled_at: null, ...defaultRules('2026-11-25T15:30:00.000+05:30'),
      bidder_cancels: [],
    };
    const body = res.json<{ message: string; auction: AuctionJson }>();
    expect({ ...body, auction: { ...body.auction, product_ids: [...body.auction.product_ids].sort() } }).toEqual({ message: 'Auction created successfully!', auction });
    expect(await adminAuction('Diwali-2026', admin.token)).toEqual(body.auction);
    expect(await unassigned(admin.token)).toEqual([productJson(r!)]);
    expect(byId(await adminProducts('Diwali-2026', admin.token))).toEqual({
      [p!]: productJson(p!, { auction_id: 'Diwali-2026' }), [q!]: productJson(q!, { auction_id: 'Diwali-2026' }),
    });
  });

  it('reads a valid_until without an offset in Asia/Kolkata and answers in its offset; offsets and Z are honoured', async () => {
    const admin = await signUpAdmin(app);
    const cases: [string, string][] = [
      ['2026-11-24T07:45', '2026-11-24T07:45:00.000+05:30'],
      ['2026-11-24T07:45:30', '2026-11-24T07:45:30.000+05:30'],
      ['2026-11-24T07:45+05:30', '2026-11-24T07:45:00.000+05:30'],
      ['2026-11-24T07:45:00Z', '2026-11-24T13:15:00.000+05:30'],
      ['2026-11-24T07:45:00-02:00', '2026-11-24T15:15:00.000+05:30'],
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
    expect(body.auction).toMatchObject({ id: auctionId, name: 'Renamed sale', valid_until: '2026-11-30T18:00:00.000+05:30', product_count: 2, status: 'active', settled_at: null });
    expect([...body.auction.product_ids].sort()).toEqual([...productIds].sort());
    expect(await adminAuction(auctionId, admin.token)).toEqual(body.auction);
  });

  it('product_ids adds the caller’s unassigned products and removes bid-less ones, which return to unassigned', async () => {
    const admin = await signUpAdmin(app);
    const { auctionId, productIds: [keep, drop] } = await newAuction(admin.token, { products: 2 });
    const [add] = await createProducts(app, admin.token, 1);
    const asha = await richBidder(app, 1000, [auctionId]);
    await placeBid(asha.token, keep!, 120);
    // A bid that was cancelled does not count as "has bids" ("has bids" means has a `success` bid).
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
    expect((await bidsOf(asha.token)).map((b) => [b.bid_id, b.state])).toEqual([[ashaOnQ.bid_id, 'rolledback'], [ashaOutbid.bid_id, 'outbid']]);
    expect((await bidsOf(ravi.token)).map((b) => [b.bid_id, b.state])).toEqual([[raviOnP.bid_id, 'rolledback']]);
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
